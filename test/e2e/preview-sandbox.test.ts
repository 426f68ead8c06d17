import t from 'tap'
import { build, listen, registerUser, REVIEWER_ENV, until } from '../helper.ts'
import { createPage, installApp, putEmbeds } from '../plugins/storefront/fixtures.ts'
import { hostileServer, launch, logIn, screenshot } from './browser.ts'

/**
 * An app's GLOBAL_SCRIPT: on the first click anywhere in the page, send the top window to a look-alike
 * sign-in page, then report how that went through a script tag (the one channel the storefront's CSP
 * leaves an embed: its own script origin).
 */
const HIJACK = (origin: string) => `document.addEventListener('click', () => {
  let outcome = 'navigating'
  try { window.top.location.href = ${JSON.stringify(`${origin}/sign-in`)} } catch (error) { outcome = 'blocked: ' + error.name }
  const report = document.createElement('script')
  report.src = ${JSON.stringify(`${origin}/report`)} + '?outcome=' + encodeURIComponent(outcome)
  document.head.appendChild(report)
}, true)
document.body.insertAdjacentHTML('afterbegin', '<button id="bait" style="position:relative;z-index:9;padding:24px">Claim your discount</button>')`

t.test('an app script in the admin\'s preview frames cannot navigate the admin tab', async (t) => {
  const app = await build(t, { env: REVIEWER_ENV })
  const base = await listen(app)
  let phished = 0
  const outcomes: string[] = []
  const hostileOrigin = await hostileServer(t, (url, origin) => {
    if (url.pathname === '/hijack.js') return { type: 'text/javascript', body: HIJACK(origin) }
    if (url.pathname === '/report') {
      outcomes.push(url.searchParams.get('outcome') ?? '')
      return { type: 'text/javascript', body: '' }
    }
    if (url.pathname === '/sign-in') {
      phished++
      return { type: 'text/html', body: '<h1>Sign in again</h1>' }
    }
    return null
  })

  const merchant = await registerUser(app, 'MERCHANT', { businessName: 'Framed Shop' })
  const shop = await installApp(app, merchant, { embeds: [{ embedType: 'promo', name: 'Promo', kind: 'GLOBAL_SCRIPT', position: 'body_end', scriptUrl: `${hostileOrigin}/hijack.js` }] })
  await createPage(app, merchant, 'home', 'Home')
  t.equal((await putEmbeds(app, merchant, shop.installed.installationId, { promo: { enabled: true } })).statusCode, 200)

  const browser = await launch(t)
  const page = await browser.newPage({ viewport: { width: 1200, height: 900 } })
  await page.goto(`${base}/admin`)
  await page.waitForURL(/\/login/)
  await logIn(page, merchant.email, 'correct-horse')

  const clickBait = async (screen: string, frameTitle: string, adminPath: string) => {
    await page.goto(`${base}${adminPath}`)
    const frame = page.locator(`iframe[title="${frameTitle}"]`)
    t.equal(await frame.getAttribute('sandbox'), 'allow-scripts allow-forms allow-popups allow-same-origin', `${screen}: the preview frame is sandboxed, no allow-top-navigation`)
    const bait = page.frameLocator(`iframe[title="${frameTitle}"]`).locator('#bait')
    await bait.waitFor()
    const reported = outcomes.length
    await bait.click()
    await until(async () => outcomes.length + phished, (n) => n > reported, 10_000)
    t.match(outcomes.at(-1), /^blocked: SecurityError$/, `${screen}: the script's top-level navigation was refused`)
    t.equal(new URL(page.url()).origin, new URL(base).origin, `${screen}: the admin tab stayed on the admin`)
    t.equal(new URL(page.url()).pathname, adminPath)
    await screenshot(page, `preview-sandbox-${screen}`)
  }
  await clickBait('theme-editor', 'Page preview', '/admin/pages/home')
  await clickBait('embeds', 'Store preview', `/admin/apps/${shop.installed.installationId}/embeds`)
  t.equal(phished, 0, 'the look-alike page was never loaded')
})
