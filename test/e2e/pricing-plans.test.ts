import t, { type Test } from 'tap'
import type { Browser, Page } from 'playwright-core'
import { build, listen, registerUser, createApp, publishApp, loginReviewer, REVIEWER_ENV } from '../helper.ts'
import { launch, screenshot, SCREENSHOTS } from './browser.ts'

/** A browser page signed in with a login answer (the admin's stored session), at a viewport's width. */
async function signedInPage (t: Test, browser: Browser, session: unknown, width: number): Promise<Page> {
  const context = await browser.newContext({ viewport: { width, height: 900 } })
  t.teardown(() => context.close())
  await context.addInitScript((value) => { localStorage.setItem('app-platform.session', value) }, JSON.stringify(session))
  return await context.newPage()
}

/** The page is no wider than its viewport: nothing to scroll sideways. */
async function fitsWidth (page: Page): Promise<boolean> {
  return await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)
}

t.test('pricing plans: edited in Settings, shown on the listing and the consent screen once approved', async (t) => {
  const app = await build(t, { env: REVIEWER_ENV })
  const base = await listen(app)
  const developer = await registerUser(app, 'DEVELOPER')
  const merchant = await registerUser(app, 'MERCHANT')
  const { app: created } = await createApp(app, developer, { name: 'Stamp Card', appUrl: 'https://stamps.example.com/install', redirectUrl: 'https://stamps.example.com/oauth/callback' })
  const login = async (email: string) => (await app.inject({ method: 'POST', url: '/auth/login', payload: { email, password: 'correct-horse' } })).json()
  const developerSession = await login(developer.email)
  const merchantSession = await login(merchant.email)
  const saved = async () => (await app.inject({ url: `/developer/apps/${created.id}`, headers: developer.auth })).json()
  const browser = await launch(t)

  await t.test('at 1280 px: plans added with the keyboard, a missing price marked under its field, then saved', async (t) => {
    const page = await signedInPage(t, browser, developerSession, 1280)
    await page.goto(`${base}/portal/apps/${created.id}/settings`)
    const editor = page.getByTestId('pricing-editor')
    await editor.getByTestId('pricing-none').waitFor()

    await editor.getByRole('button', { name: 'Add a plan' }).focus()
    await page.keyboard.press('Enter')
    const first = editor.getByTestId('plan').nth(0)
    await first.waitFor()
    t.ok(await first.getByLabel('Name').evaluate((input) => input === document.activeElement), 'the new plan\'s name has the keyboard')
    await page.keyboard.type('Pro')
    t.equal(await first.getByLabel('Id').inputValue(), 'pro', 'the id follows the name')
    await first.getByLabel('Trial days').fill('14')
    await first.getByLabel('Usage charges on top of the price').check()
    await first.getByLabel(/Usage cap/).fill('50')
    await first.getByLabel('Terms').fill('5 cents per stamp card sent')

    await editor.getByRole('button', { name: 'Save pricing' }).click()
    const priceError = first.locator('#' + (await first.getByLabel('Price (USD)').getAttribute('id') ?? '') + '-error')
    await priceError.waitFor()
    t.match(await priceError.innerText(), /Enter a price in USD/)
    t.equal(await first.getByLabel('Price (USD)').getAttribute('aria-invalid'), 'true')
    t.ok(await first.getByLabel('Price (USD)').evaluate((input) => input === document.activeElement), 'the keyboard goes to the field to fix')
    t.same((await saved()).pricing, { plans: [] }, 'nothing sent')
    await page.getByTestId('pricing-section').screenshot({ path: `${SCREENSHOTS}pricing-field-error-1280.png` })
    await page.keyboard.type('19')

    await editor.getByRole('button', { name: 'Add a plan' }).click()
    const second = editor.getByTestId('plan').nth(1)
    await second.getByLabel('Name').fill('Setup')
    await second.getByLabel('Kind').selectOption('ONE_TIME')
    t.equal(await second.getByLabel('Interval').count(), 0, 'a one-time plan has no interval')
    await second.getByLabel('Price (USD)').fill('49.00')
    await editor.getByRole('button', { name: 'Save pricing' }).click()
    await page.getByText('Pricing saved.').waitFor()
    t.same((await saved()).pricing, {
      plans: [
        { id: 'pro', name: 'Pro', kind: 'RECURRING', price: { amount: 1900, currency: 'USD' }, interval: 'EVERY_30_DAYS', trialDays: 14, usage: { cappedAmount: { amount: 5000, currency: 'USD' }, terms: '5 cents per stamp card sent' } },
        { id: 'setup', name: 'Setup', kind: 'ONE_TIME', price: { amount: 4900, currency: 'USD' } }
      ]
    })
    await screenshot(page, 'pricing-editor-1280')
  })

  await t.test('after the approval the listing and the consent screen show the plans', async (t) => {
    await publishApp(app, developer, created.id)
    const page = await signedInPage(t, browser, merchantSession, 1280)
    await page.goto(`${base}/apps/${created.slug}`)
    const plans = page.getByTestId('pricing-plans')
    await plans.waitFor()
    const text = await plans.innerText()
    t.match(text, /Pro\s+\$19\.00 every 30 days/)
    t.match(text, /14-day free trial/)
    t.match(text, /Usage charges up to \$50\.00 every 30 days: 5 cents per stamp card sent/)
    t.match(text, /Setup\s+\$49\.00 once/)
    await screenshot(page, 'pricing-listing-1280')

    await page.goto(`${base}/oauth/authorize?${new URLSearchParams({ response_type: 'code', client_id: created.clientId, redirect_uri: created.redirectUrl, state: 's' })}`)
    await page.getByTestId('consent').waitFor()
    t.match(await page.getByTestId('consent').getByTestId('pricing-plans').innerText(), /Pro\s+\$19\.00 every 30 days/)
    await screenshot(page, 'pricing-consent-1280')
  })

  await t.test('at 390 px: a new price waits for the review while the listing keeps the approved one', async (t) => {
    const page = await signedInPage(t, browser, developerSession, 390)
    await page.goto(`${base}/portal/apps/${created.id}/settings`)
    const first = page.getByTestId('plan').nth(0)
    await first.getByLabel('Price (USD)').fill('29')
    await page.getByRole('button', { name: 'Save pricing' }).click()
    await page.getByText(/The change needs a review/).waitFor()
    await page.getByTestId('approved-pricing').waitFor()
    t.ok(await fitsWidth(page), 'the settings fit 390 px')
    await screenshot(page, 'pricing-editor-390')
    await page.getByTestId('pricing-section').screenshot({ path: `${SCREENSHOTS}pricing-section-390.png` })
    t.match(await saved(), { status: 'DRAFT', isPublished: true })

    const listing = await signedInPage(t, browser, merchantSession, 390)
    await listing.goto(`${base}/apps/${created.slug}`)
    await listing.getByTestId('pricing-plans').waitFor()
    t.match(await listing.getByTestId('pricing-plans').innerText(), /Pro\s+\$19\.00 every 30 days/, 'still the approved price')
    t.ok(await fitsWidth(listing), 'the listing fits 390 px')

    await app.inject({ method: 'POST', url: `/developer/apps/${created.id}/submit`, headers: developer.auth })
    const reviewer = await loginReviewer(app)
    t.equal((await app.inject({ method: 'POST', url: `/review/apps/${created.id}/approve`, headers: reviewer.auth, payload: {} })).statusCode, 200)
    await listing.reload()
    await listing.getByText('$29.00 every 30 days').waitFor()
    await screenshot(listing, 'pricing-listing-390')
    t.pass('the approved new price is on the listing')
  })
})
