import t from 'tap'
import { build, listen, registerUser, createApp, publishApp, REVIEWER_ENV } from '../helper.ts'
import { launch, logIn, screenshot } from './browser.ts'

const APPS = [
  { name: 'Stock Sense', slug: 'stock-sense', category: 'analytics', description: 'Forecasts stock from your sales history.' },
  { name: 'Mail Magnet', slug: 'mail-magnet', category: 'marketing', description: 'Email campaigns for every new review.' },
  { name: 'Loyal Loop', slug: 'loyal-loop', category: 'loyalty', description: 'Points and rewards for returning customers.' },
  { name: 'Sales Scope', slug: 'sales-scope', category: 'analytics', description: 'Revenue dashboards and daily reports.' }
]

t.test('marketplace in Chromium', async (t) => {
  const app = await build(t, { env: REVIEWER_ENV })
  const base = await listen(app)
  const browser = await launch(t)
  const page = await browser.newPage({ viewport: { width: 1100, height: 760 } })

  await page.goto(base)
  await page.getByTestId('empty').waitFor()
  t.match(await page.getByTestId('empty').innerText(), /No apps are published yet/)
  await screenshot(page, 'marketplace-empty')

  const developer = await registerUser(app, 'DEVELOPER', { name: 'Ada Apps' })
  for (const listing of APPS) {
    const { app: created } = await createApp(app, developer, { ...listing, scopes: ['read_products', 'read_orders'] })
    await publishApp(app, developer, created.id)
  }
  await createApp(app, developer, { name: 'Draft Dancer', slug: 'draft-dancer', category: 'analytics', description: 'Never submitted.' })

  await t.test('lists published apps, searches and filters', async (t) => {
    await page.reload()
    await page.getByTestId('app-grid').waitFor()
    t.equal(await page.getByTestId('app-card').count(), 4, 'drafts are not listed')
    const first = await page.getByTestId('app-card').first().innerText()
    t.match(first, /by Ada Apps/)
    t.match(first, /0 installs/)
    await screenshot(page, 'marketplace-home')

    await page.getByLabel('Search apps').fill('dashboards')
    await page.getByRole('button', { name: 'Search' }).click()
    await page.waitForURL(/\?q=dashboards/)
    await page.getByText('1 app', { exact: true }).waitFor()
    t.match(await page.getByTestId('app-grid').innerText(), /Sales Scope/)

    await page.getByLabel('Search apps').fill('')
    await page.getByRole('button', { name: 'Search' }).click()
    await page.getByLabel('Category').selectOption('analytics')
    await page.waitForURL(/\?category=analytics/)
    await page.getByText('2 apps', { exact: true }).waitFor()
    const names = await page.getByTestId('app-card').allInnerTexts()
    t.ok(names.every((n) => /Analytics/.test(n)), 'only analytics apps')
    await screenshot(page, 'marketplace-filtered')

    await page.getByLabel('Category').selectOption('shipping')
    await page.getByTestId('empty').waitFor()
    t.match(await page.getByTestId('empty').innerText(), /No apps match/)
    await screenshot(page, 'marketplace-no-match')
  })

  await t.test('shows an app and how to install it', async (t) => {
    await page.goto(base)
    await page.getByRole('link', { name: /Loyal Loop/ }).click()
    await page.waitForURL(`${base}/apps/loyal-loop`)
    await page.getByTestId('app-listing').waitFor()
    const text = await page.getByTestId('app-listing').innerText()
    t.match(text, /Loyal Loop/)
    t.match(text, /Points and rewards for returning customers/)
    t.match(text, /by Ada Apps · Loyalty · version 1\.0\.0/)
    t.match(await page.getByTestId('approved-scopes').innerText(), /See your products and stock[\s\S]*See your orders/)
    // created without an appUrl: the listing says it cannot be installed yet (DESIGN §15)
    t.match(await page.getByTestId('install-box').innerText(), /Not installable yet[\s\S]*no install address/)
    await screenshot(page, 'marketplace-detail')

    await page.goto(`${base}/apps/draft-dancer`)
    await page.getByRole('alert').waitFor()
    t.match(await page.getByRole('alert').innerText(), /not found/i, 'an unpublished app is the API’s 404 message')
    await screenshot(page, 'marketplace-detail-missing')
  })

  await t.test('a merchant keeps the welcome line and is kept out of the portal', async (t) => {
    const merchant = await registerUser(app, 'MERCHANT', { name: 'Mia Merchant' })
    await page.goto(`${base}/login`)
    await logIn(page, merchant.email, 'correct-horse')
    t.equal(new URL(page.url()).pathname, '/admin', 'signing in lands a merchant on Admin')
    await page.getByRole('link', { name: 'Marketplace' }).click()
    await page.getByTestId('welcome').waitFor()
    t.match(await page.getByTestId('welcome').innerText(), /Signed in as Mia Merchant \(MERCHANT\)/)
    t.equal(await page.getByRole('link', { name: 'Portal' }).count(), 0, 'no portal link for a merchant')
    await page.getByTestId('app-grid').waitFor()
    await screenshot(page, 'marketplace-merchant')
    await page.goto(`${base}/portal/apps/new`)
    await page.getByTestId('wrong-role').waitFor()
    t.match(await page.getByTestId('wrong-role').innerText(), /This area is for developers/)
    await screenshot(page, 'portal-wrong-role')
  })
})
