import t from 'tap'
import { build, createApp, listen, oauthInstall, publishApp, registerUser, REVIEWER_ENV, portsOf } from '../helper.ts'
import { receiver } from '../plugins/webhooks/helpers.ts'
import { fitsWidth, launch, logIn, screenshot, seriousAxeViolations } from './browser.ts'

/**
 * #29 item 7: the console listed one card per past registration ("Disabled: App uninstalled") and
 * named merchants only by inst_…/biz_… ids. Now its registrations are grouped under each store's name,
 * and those an uninstall switched off wait behind a filter.
 */
t.test('the console groups registrations by store, by name, with uninstalled ones behind a filter', async (t) => {
  const app = await build(t, { env: REVIEWER_ENV })
  const base = await listen(app)
  const hooks = await receiver(t)
  const developer = await registerUser(app, 'DEVELOPER')
  const redirectUrl = 'https://parcel.example.com/oauth/callback'
  const { app: created, clientSecret } = await createApp(app, developer, {
    name: 'Parcel Pal', redirectUrl, webhookUrl: hooks.url, webhookEvents: ['order.created'], scopes: ['read_products', 'read_orders']
  })
  await publishApp(app, developer, created.id)
  const client = { clientId: created.clientId, clientSecret, redirectUrl }
  // a merchant installs, uninstalls and installs again; the developer's sandbox store has it too
  const bakery = await registerUser(app, 'MERCHANT', { businessName: 'Corner Bakery' })
  const firstInstall = await oauthInstall(app, bakery, client)
  t.equal((await app.inject({ method: 'DELETE', url: `/merchant/installations/${firstInstall.installationId}`, headers: bakery.auth })).statusCode, 200)
  await oauthInstall(app, bakery, client)
  t.equal((await app.inject({ method: 'POST', url: `/developer/apps/${created.id}/test-install`, headers: developer.auth })).statusCode, 201)
  const sandboxName = (await portsOf(app).commerce.findBusiness(developer.businessId))?.name as string

  const browser = await launch(t)
  for (const width of [1280, 390]) {
    await t.test(`at ${width} px`, async (t) => {
      const page = await browser.newPage({ viewport: { width, height: 900 } })
      t.teardown(() => page.close())
      await page.goto(`${base}/login?next=${encodeURIComponent(`/portal/apps/${created.id}/deliveries`)}`)
      await logIn(page, developer.email, 'correct-horse')
      const stores = page.getByTestId('store')
      await stores.first().waitFor()
      t.same(await stores.locator('h3').allInnerTexts(), [sandboxName, 'Corner Bakery'], 'one group per store, newest first, each by its name')
      const bakeryGroup = stores.filter({ has: page.getByRole('heading', { name: 'Corner Bakery' }) })
      t.equal(await bakeryGroup.getByTestId('registration').count(), 1, 'the bakery shows its current registration only')
      t.equal(await page.getByTestId('disabled-reason').count(), 0, 'no "Disabled: App uninstalled" card by default')
      t.notMatch(await page.locator('main').innerText(), /inst_/, 'no installation id in the list')

      const filter = page.getByTestId('show-uninstalled')
      t.match(await page.locator('label', { has: filter }).innerText(), /Show the 1 registration switched off by an uninstall/)
      await filter.check()
      await bakeryGroup.getByTestId('registration').nth(1).waitFor()
      t.match(await bakeryGroup.getByTestId('disabled-reason').innerText(), /App uninstalled/, 'shown under its store when asked for')
      t.ok(await fitsWidth(page), 'no sideways scroll')
      t.same(await seriousAxeViolations(page), [], 'no serious or critical axe violation')
      await screenshot(page, `console-stores-${width}`)
      await filter.press('Space')
      await page.getByTestId('disabled-reason').waitFor({ state: 'detached' })
      t.pass('the filter works by keyboard')
    })
  }
})
