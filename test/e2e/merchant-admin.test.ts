import t from 'tap'
import { createServer } from 'node:http'
import { once } from 'node:events'
import type { AddressInfo } from 'node:net'
import { build, listen, registerUser, createApp, publishApp, oauthInstall, REVIEWER_ENV } from '../helper.ts'
import { fitsWidth, launch, screenshot, seriousAxeViolations } from './browser.ts'
import { verifySessionToken } from '../../sdk/src/index.ts'

// The app's admin page: records what the admin panel tells it, from the expected parent only.
const ADMIN_PAGE = (platformOrigin: string) => `<!doctype html><html><body><h2>Reports</h2><pre id="query"></pre><pre id="init">waiting</pre>
<button id="refresh">Fresh token</button><pre id="token">none</pre>
<script>
document.getElementById('query').textContent = location.search
document.getElementById('refresh').onclick = () => window.parent.postMessage({ type: 'service:session-token-request' }, ${JSON.stringify(platformOrigin)})
window.addEventListener('message', (event) => {
  if (event.origin !== ${JSON.stringify(platformOrigin)} || event.source !== window.parent) return
  document.getElementById(event.data.type === 'service:session-token' ? 'token' : 'init').textContent = JSON.stringify(event.data)
})
</script></body></html>`

t.test('merchant admin in Chromium', async (t) => {
  const app = await build(t, { env: REVIEWER_ENV })
  const base = await listen(app)
  const appServer = createServer((_request, response) => { response.setHeader('content-type', 'text/html'); response.end(ADMIN_PAGE(base)) })
  appServer.listen(0, '127.0.0.1')
  await once(appServer, 'listening')
  t.teardown(() => appServer.close())
  const appOrigin = `http://127.0.0.1:${(appServer.address() as AddressInfo).port}`

  const developer = await registerUser(app, 'DEVELOPER')
  const { app: created, clientSecret } = await createApp(app, developer, { name: 'Insights', scopes: ['read_business'] })
  const manifest = {
    settingsSchema: {
      type: 'object',
      properties: {
        brandColor: { type: 'string', format: 'color', title: 'Brand color' },
        launchAt: { type: 'string', format: 'date-time', title: 'Launch at' },
        website: { type: 'string', format: 'uri', title: 'Website' },
        greeting: { type: 'string', title: 'Greeting', description: 'Shown to customers' },
        maxItems: { type: 'integer', minimum: 1, maximum: 20, title: 'Max items' },
        enabled: { type: 'boolean', title: 'Enabled' }
      },
      required: ['maxItems']
    },
    adminPages: [{ pageId: 'reports', title: 'Reports', renderUrl: `${appOrigin}/admin/reports` }]
  }
  t.equal((await app.inject({ method: 'PUT', url: `/developer/apps/${created.id}/manifest`, headers: developer.auth, payload: { manifest } })).statusCode, 200)
  await publishApp(app, developer, created.id)
  const email = `admin-${process.pid}@example.com`
  const registered = (await app.inject({ method: 'POST', url: '/auth/register', payload: { email, password: 'correct-horse', name: 'Mira', role: 'MERCHANT', businessName: 'Mira Books' } })).json()
  const merchant = { token: registered.token, userId: registered.user.id, businessId: registered.businessId, email, auth: { authorization: `Bearer ${registered.token}` } }
  const installed = await oauthInstall(app, merchant, { clientId: created.clientId, clientSecret, redirectUrl: created.redirectUrl })
  // an approved scope expansion: the merchant must be prompted
  await app.inject({ method: 'PATCH', url: `/developer/apps/${created.id}`, headers: developer.auth, payload: { scopes: ['read_business', 'read_pages'] } })
  await publishApp(app, developer, created.id)

  const browser = await launch(t)
  const page = await browser.newPage({ viewport: { width: 1200, height: 800 } })
  page.on('dialog', (dialog) => { t.fail(`a native dialog opened: ${dialog.message()}`); void dialog.dismiss() })
  // the browser's warnings about postMessage (a message sent to a window not at the origin it names)
  const postMessageWarnings: string[] = []
  page.on('console', (message) => { if (/postMessage/i.test(message.text())) postMessageWarnings.push(message.text()) })
  await page.goto(`${base}/admin/apps`)
  await page.waitForURL(/\/login/)
  await page.getByLabel('Email').fill(email)
  await page.getByLabel('Password').fill('correct-horse')
  await page.getByRole('button', { name: 'Log in' }).click()
  await page.getByTestId(`installed-${created.slug}`).waitFor()
  t.match(await page.getByRole('status').innerText(), /Insights asks for new permissions: See your site pages/)
  await screenshot(page, 'admin-reconsent')
  // the home lists it too, and leads to the same consent view
  await page.goto(`${base}/admin`)
  const asking = page.getByTestId('reconsent')
  await asking.waitFor()
  t.match(await asking.innerText(), /Insights asks for: See your site pages/, 'the home lists the app asking for new permissions')
  await screenshot(page, 'admin-home-reconsent')
  await asking.getByRole('link', { name: 'Review permissions' }).click()
  await page.getByRole('button', { name: 'Approve new permissions' }).click()
  await page.getByText('Insights now has the new permissions').waitFor()
  const after = (await app.inject({ url: '/merchant/installations', headers: merchant.auth })).json().data[0]
  t.match(after, { needsReConsent: false, grantedScopes: ['read_business', 'read_pages'] }, 'consent recorded')
  await page.goto(`${base}/admin`)
  await page.getByText('No app is waiting for you.').waitFor()
  t.equal(await page.getByTestId('reconsent').count(), 0, 'the home no longer lists it')
  await page.goto(`${base}/admin/apps`)

  await page.getByTestId(`installed-${created.slug}`).getByRole('link', { name: 'Settings' }).click()
  await page.getByLabel('Max items').waitFor()
  t.equal(await page.getByLabel('Brand color').getAttribute('type'), 'color', 'color → color picker')
  t.equal(await page.getByLabel('Launch at').getAttribute('type'), 'datetime-local', 'date-time → date/time picker')
  t.equal(await page.getByLabel('Website').getAttribute('type'), 'url', 'uri → URL input')
  t.equal(await page.getByLabel('Greeting').getAttribute('type'), 'text')
  t.equal(await page.getByLabel('Max items').getAttribute('type'), 'number')
  t.equal(await page.getByLabel('Enabled').getAttribute('role'), 'switch', 'boolean → toggle')
  await page.getByLabel('Brand color').fill('#ff6600')
  await page.getByLabel('Launch at').fill('2027-01-15T09:30')
  await page.getByLabel('Website').fill('https://mira.example.com')
  await page.getByLabel('Greeting').fill('Hello readers')
  await page.getByLabel('Max items').fill('7')
  await page.getByLabel('Enabled').check()
  await screenshot(page, 'admin-settings')
  await page.getByRole('button', { name: 'Save settings' }).click()
  await page.getByText('Settings saved').waitFor()
  const saved = (await app.inject({ url: `/merchant/installations/${installed.installationId}/settings`, headers: merchant.auth })).json().settings
  t.match(saved, { brandColor: '#ff6600', website: 'https://mira.example.com', greeting: 'Hello readers', maxItems: 7, enabled: true })
  t.ok(!Number.isNaN(Date.parse(saved.launchAt)), 'date-time stored as an ISO instant')

  await page.getByRole('link', { name: 'Reports' }).click()
  const frame = page.frameLocator('iframe[title="Reports"]')
  await frame.locator('#init').filter({ hasNotText: 'waiting' }).waitFor()
  const { sessionToken, ...init } = JSON.parse(await frame.locator('#init').innerText())
  t.same(init, { type: 'service:init', businessId: merchant.businessId, businessName: 'Mira Books', role: 'OWNER', locale: 'en' }, 'the owner: role OWNER (DESIGN §24)')
  const verify = (token: string) => verifySessionToken(token, { secret: installed.webhookSecret, clientId: created.clientId, issuer: base })
  t.match(verify(sessionToken), { sub: merchant.userId, businessId: merchant.businessId, installationId: installed.installationId }, 'service:init carries a signed session token')
  await frame.locator('#refresh').click()
  await frame.locator('#token').filter({ hasNotText: 'none' }).waitFor()
  const fresh = JSON.parse(await frame.locator('#token').innerText())
  t.equal(fresh.type, 'service:session-token')
  t.not(verify(fresh.sessionToken).jti, verify(sessionToken).jti, 'service:session-token-request → a fresh one')
  const query = new URLSearchParams(await frame.locator('#query').innerText())
  t.equal(query.get('businessId'), merchant.businessId)
  t.equal(query.get('locale'), 'en')
  t.equal(await page.locator('iframe[title="Reports"]').getAttribute('sandbox'), 'allow-scripts allow-same-origin allow-forms allow-popups')
  await screenshot(page, 'admin-app-page')
  t.same(postMessageWarnings, [], 'viewing the admin page logs no postMessage warning')

  await page.getByRole('link', { name: 'Installed apps' }).click()
  // Uninstall asks in the page (an alertdialog, the app's confirm step), never with the browser's confirm; by keyboard
  const card = page.getByTestId(`installed-${created.slug}`)
  const uninstall = card.getByRole('button', { name: 'Uninstall Insights' })
  const focusedText = async () => await page.evaluate(() => document.activeElement?.textContent ?? '')
  await uninstall.focus()
  await page.keyboard.press('Enter')
  const confirm = page.getByRole('alertdialog', { name: 'Uninstall Insights?' })
  await confirm.waitFor()
  t.match(await confirm.innerText(), /erase your data in 48 hours/, 'it says what uninstalling does')
  t.equal(await focusedText(), 'Cancel', 'focus goes to Cancel')
  t.equal(await uninstall.getAttribute('aria-expanded'), 'true')
  t.same(await seriousAxeViolations(page), [], 'the confirm step: no serious axe violation')
  await screenshot(page, 'admin-uninstall-confirm-1280')
  await page.keyboard.press('Escape')
  await confirm.waitFor({ state: 'detached' })
  t.ok(await uninstall.evaluate((button) => button === document.activeElement), 'Escape closes it and focus returns to Uninstall')
  t.equal((await app.inject({ url: '/merchant/installations', headers: merchant.auth })).json().data.length, 1, 'nothing was uninstalled')
  await page.setViewportSize({ width: 390, height: 800 })
  await page.keyboard.press('Enter')
  await confirm.waitFor()
  t.ok(await fitsWidth(page), '390 px: the confirm step fits')
  await screenshot(page, 'admin-uninstall-confirm-390')
  await page.keyboard.press('Shift+Tab')
  t.equal(await focusedText(), 'Uninstall app', 'Shift+Tab reaches the button that does it')
  await page.keyboard.press('Enter')
  await page.getByText('Insights was uninstalled').waitFor()
  await page.setViewportSize({ width: 1200, height: 800 })
  // the notice shows at once; the list reloads right after
  await page.getByTestId(`installed-${created.slug}`).waitFor({ state: 'detached' })
  t.equal(await page.getByTestId(`installed-${created.slug}`).count(), 0, 'the app left the list')
  await page.getByRole('link', { name: 'Reports' }).waitFor({ state: 'detached' })
  t.equal(await page.getByRole('link', { name: 'Reports' }).count(), 0, 'its admin page left the sidebar')
  t.equal((await app.inject({ url: '/app-api/business', headers: installed.auth })).statusCode, 401)
})
