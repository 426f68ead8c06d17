import t from 'tap'
import { install, stage } from '../../examples/reference-app/test/fixture.ts'
import { launch, screenshot } from './browser.ts'

/*
 * The reference app's "Upgrade to Pro" as a merchant clicks it (DESIGN §23): inside its admin page's
 * sandboxed frame (which may not move the admin's tab), the app asks the admin panel to open its own
 * approval screen for the charge (service:confirm-charge), the merchant approves there, at the top
 * level, and comes back to the app's return page; the admin page then shows the plan.
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

  // the frame's sandbox is the spec's four grants: no script or link of the app moves the admin's tab
  t.equal(await page.locator('iframe[title="Reviews & Rewards"]').getAttribute('sandbox'), 'allow-scripts allow-same-origin allow-forms allow-popups')
  await t.test('approved at the top level, back at the app, the plan on its page', async (t) => {
    await frame.getByRole('button', { name: 'Upgrade to Pro' }).click()
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
