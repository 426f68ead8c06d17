import t from 'tap'
import { install, stage } from '../../examples/reference-app/test/fixture.ts'
import { launch, screenshot } from './browser.ts'

/*
 * The reference app's "Recent orders" on its admin page (issue #41 item 4): the app keeps the store's
 * latest orders and, each time the page opens, reads only the orders changed since the last one it
 * read (the App API's updatedSince). Seen by a merchant, at a desktop width and at 390 px.
 */
t.test('the reference app\'s admin page lists the recent orders, refreshed with only what changed', async (t) => {
  const s = await stage(t)
  const installation = await install(s)
  const login = (await s.platform.inject({ method: 'POST', url: '/auth/login', payload: { email: s.merchant.email, password: 'correct-horse' } })).json()
  const browser = await launch(t)
  for (const width of [1200, 390]) {
    await t.test(`at ${width} px`, async (t) => {
      const context = await browser.newContext({ viewport: { width, height: 900 } })
      t.teardown(() => context.close())
      await context.addInitScript((value) => { localStorage.setItem('app-platform.session', value) }, JSON.stringify({ token: login.token, user: login.user }))
      const page = await context.newPage()
      page.setDefaultTimeout(30_000)
      await page.goto(`${s.baseUrl}/admin/apps/${installation.installationId}/pages/overview`)
      const frame = page.frameLocator('iframe[title="Reviews & Rewards"]')
      const card = frame.locator('section', { has: frame.getByRole('heading', { name: 'Recent orders' }) })
      await card.waitFor()
      const text = await card.innerText()
      t.ok(/No orders in the last 30 days\.|read from the platform this time/.test(text), text)
      const rows = await card.locator('tr[data-order]').count()
      t.ok(rows <= 20, 'at most the 20 latest')
      await screenshot(page, `reference-app-orders-${width}`)
    })
  }
})
