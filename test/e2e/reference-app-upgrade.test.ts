import t from 'tap'
import { install, stage } from '../../examples/reference-app/test/fixture.ts'
import { launch, screenshot } from './browser.ts'

/*
 * The reference app's "Upgrade to Pro" as a merchant clicks it (DESIGN §23): inside its admin page's
 * sandboxed frame, the approval opens at the top level of a new tab (the frame may open tabs, not move
 * the admin's own), the merchant approves on the platform's charge page, and that tab comes back to the
 * app's return page; the admin page then shows the plan.
 */
t.test('Upgrade to Pro from the reference app\'s admin page, approved in the platform\'s admin', async (t) => {
  const s = await stage(t)
  const installation = await install(s)
  const login = (await s.platform.inject({ method: 'POST', url: '/auth/login', payload: { email: s.merchant.email, password: 'correct-horse' } })).json()
  const browser = await launch(t)
  const context = await browser.newContext({ viewport: { width: 1200, height: 900 } })
  t.teardown(() => context.close())
  await context.addInitScript((value) => { localStorage.setItem('app-platform.session', value) }, JSON.stringify({ token: login.token, user: login.user }))
  const page = await context.newPage()
  page.setDefaultTimeout(30_000)

  await page.goto(`${s.baseUrl}/admin/apps/${installation.installationId}/pages/overview`)
  const frame = page.frameLocator('iframe[title="Reviews & Rewards"]')
  await frame.locator('[data-plan="free"]').waitFor()
  t.match(await frame.locator('[data-plan]').innerText(), /Free\. Pro: \$9\.99 every 30 days after a 14-day free trial/, 'the page offers Pro with its terms')

  // the frame may move the admin's tab only on the merchant's click (allow-top-navigation-by-user-activation)
  const sandbox = await page.locator('iframe[title="Reviews & Rewards"]').getAttribute('sandbox') ?? ''
  const todo = sandbox.includes('allow-top-navigation') ? false : `the admin page frame's sandbox (${sandbox}) lets no click move the admin's tab`
  await t.test('approved at the top level, back at the app, the plan on its page', { todo }, async (t) => {
    await frame.getByRole('button', { name: 'Upgrade to Pro' }).click()
    const link = frame.locator('[data-confirmation]')
    t.match(await link.getAttribute('href'), /\/admin\/charges\/sub_/)
    t.equal(await link.getAttribute('target'), '_top', 'to the top window, not inside the frame')
    await link.click()
    await page.waitForURL(/\/admin\/charges\/sub_/)
    await page.getByTestId('charge-facts').waitFor()
    t.match(await page.getByTestId('charge-plan').innerText(), 'Pro', 'the admin\'s approval page, at the top level')
    await screenshot(page, 'reference-app-approve')

    await page.getByRole('button', { name: 'Approve' }).click()
    await page.waitForURL(`${s.appUrl}/billing/return?**`)
    await page.locator('[data-plan-status="ACTIVE"]').waitFor()
    t.match(await page.locator('main').innerText(), /You are on Pro[\s\S]*9\.99 USD every 30 days, free trial until/, 'back at the app, which read the charge from the App API')
    await screenshot(page, 'reference-app-upgraded')

    await page.getByRole('link', { name: 'Back to the app in your admin' }).click()
    await frame.locator('[data-plan="pro"]').waitFor()
    t.match(await frame.locator('[data-plan]').innerText(), /Pro: \$9\.99 every 30 days, free trial until/, 'the admin page shows the plan')
    await screenshot(page, 'reference-app-pro')
  })
})
