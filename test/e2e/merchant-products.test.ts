import t from 'tap'
import type { Page } from 'playwright-core'
import type { Test } from 'tap'
import { build, listen, registerUser } from '../helper.ts'
import { fitsWidth, launch, logIn, screenshot, seriousAxeViolations, solidPng } from './browser.ts'

/** The screen's accessibility and width checks, and a screenshot to look at. */
async function check (t: Test, page: Page, name: string): Promise<void> {
  t.same(await seriousAxeViolations(page), [], `${name}: no serious or critical axe violation`)
  t.ok(await fitsWidth(page), `${name}: no sideways scrolling`)
  await screenshot(page, name)
}

t.test('merchant Home and Products in Chromium, at 1280 and 390 px', async (t) => {
  const app = await build(t)
  const base = await listen(app)
  const merchant = await registerUser(app, 'MERCHANT', { businessName: 'Rosa Pizza' })
  const browser = await launch(t)
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } })

  await page.goto(`${base}/login`)
  await logIn(page, merchant.email, 'correct-horse')
  t.equal(new URL(page.url()).pathname, '/admin', 'a merchant lands on Admin')
  await page.getByTestId('figures').waitFor()
  t.equal(await page.getByTestId('orders-today').innerText(), 'Orders today\n0')
  t.match(await page.getByTestId('sales-30').innerText(), /\$0\.00/)
  await page.getByText('Every product has more than its low-stock threshold.').waitFor()
  await page.getByText('No app is waiting for you.').waitFor()
  await check(t, page, 'merchant-home-empty-1280')

  await page.getByRole('navigation', { name: 'Admin' }).getByRole('link', { name: 'Products' }).click()
  await page.getByText('No products yet.').waitFor()
  await check(t, page, 'merchant-products-empty-1280')

  // create, by keyboard: type into the fields, Enter submits the form
  await page.getByRole('link', { name: 'New product' }).click()
  await page.getByLabel('Name', { exact: true }).fill('Margherita')
  await page.getByLabel('Description').fill('Tomato, mozzarella, basil')
  await page.getByLabel('Price (USD)').fill('12.5')
  await page.getByLabel('Stock', { exact: true }).fill('3')
  await page.getByLabel('Low-stock threshold').fill('5')
  await page.getByLabel('Picture').setInputFiles({ name: 'margherita.png', mimeType: 'image/png', buffer: solidPng(64, 64, [220, 60, 40]) })
  await check(t, page, 'merchant-product-new-1280')
  await page.getByLabel('Category').focus()
  await page.keyboard.type('Pizza')
  await page.keyboard.press('Enter')
  await page.getByText('Product created').waitFor()
  await page.getByTestId('product-picture').waitFor()
  const productId = new URL(page.url()).pathname.split('/').at(-1) as string
  const created = (await app.inject({ url: `/merchant/products/${productId}`, headers: merchant.auth })).json()
  t.match(created, { name: 'Margherita', price: 1250, stock: 3, lowStockThreshold: 5, category: 'Pizza', status: 'ACTIVE', isAvailable: true, imageUrl: /^\/media\/products\// },
    'typed in major units, stored in minor units, with the picture')
  t.equal(await page.getByTestId('product-picture').evaluate((img) => (img as HTMLImageElement).naturalWidth), 64, 'the picture loads')
  await check(t, page, 'merchant-product-edit-1280')

  await page.getByLabel('Price (USD)').fill('13')
  await page.getByLabel('Status').selectOption('DRAFT')
  await page.getByLabel('Available to order').uncheck()
  await page.getByRole('button', { name: 'Save changes' }).click()
  await page.getByText('Margherita saved').waitFor()
  t.match((await app.inject({ url: `/merchant/products/${productId}`, headers: merchant.auth })).json(), { price: 1300, status: 'DRAFT', isAvailable: false })
  await page.getByLabel('Price (USD)').fill('13.999')
  await page.getByRole('button', { name: 'Save changes' }).click()
  await page.getByRole('alert').waitFor()
  t.match(await page.getByRole('alert').innerText(), /Price: an amount in USD/, 'more decimals than the currency has: said plainly, nothing sent')
  await page.getByLabel('Price (USD)').fill('13.00')

  await page.getByRole('link', { name: 'Back to products' }).click()
  await page.getByTestId('products').waitFor()
  t.match(await page.getByTestId('products').innerText(), /Margherita[\s\S]*\$13\.00[\s\S]*3[\s\S]*Draft/)
  await check(t, page, 'merchant-products-1280')
  await page.getByLabel('Search by name').fill('MARG')
  await page.getByLabel('Search by name').press('Enter')
  await page.waitForURL(/q=MARG/)
  await page.getByTestId('products').waitFor()
  await page.getByLabel('Status').selectOption('ACTIVE')
  await page.getByText('No product matches.').waitFor()
  await page.getByLabel('Status').selectOption('DRAFT')
  await page.getByTestId('products').waitFor()
  t.match(page.url(), /status=DRAFT/, 'the filters live in the URL')

  await page.getByRole('navigation', { name: 'Admin' }).getByRole('link', { name: 'Home' }).click()
  await page.getByTestId('low-stock').waitFor()
  t.match(await page.getByTestId('low-stock').innerText(), /Margherita\s+3 left/, 'Home lists the low-stock product')

  // delete with its confirm step: focus goes to Cancel, Escape closes and returns focus
  await page.goto(`${base}/admin/products/${productId}`)
  await page.getByRole('button', { name: 'Delete Margherita' }).click()
  await page.getByTestId('delete-confirm').waitFor()
  t.equal(await page.evaluate(() => document.activeElement?.textContent), 'Cancel', 'the confirm step takes focus on Cancel')
  await check(t, page, 'merchant-product-delete-1280')
  await page.keyboard.press('Escape')
  await page.getByTestId('delete-confirm').waitFor({ state: 'detached' })
  t.equal(await page.evaluate(() => document.activeElement?.getAttribute('aria-label')), 'Delete Margherita', 'Escape gives focus back')
  await page.getByRole('button', { name: 'Delete Margherita' }).click()
  await page.getByRole('button', { name: 'Delete product' }).click()
  await page.getByText('Margherita deleted').waitFor()
  t.equal((await app.inject({ url: `/merchant/products/${productId}`, headers: merchant.auth })).statusCode, 404, 'deleted through the API')

  await t.test('at 390 px: every screen fits, the menu works by keyboard', async (t) => {
    const second = (await app.inject({ method: 'POST', url: '/merchant/products', headers: merchant.auth, payload: { name: 'A pizza with a very long name indeed', price: 999, stock: 0 } })).json()
    const narrow = await browser.newPage({ viewport: { width: 390, height: 844 } })
    await narrow.goto(`${base}/login`)
    await logIn(narrow, merchant.email, 'correct-horse')
    await narrow.getByTestId('low-stock').waitFor()
    t.match(await narrow.getByTestId('low-stock').innerText(), /Out of stock/)
    await check(t, narrow, 'merchant-home-390')
    t.equal(await narrow.locator('#admin-nav').isVisible(), false, 'the admin navigation is collapsed')
    await narrow.getByRole('button', { name: 'Menu' }).focus()
    await narrow.keyboard.press('Enter')
    await narrow.getByRole('navigation', { name: 'Admin' }).getByRole('link', { name: 'Products' }).focus()
    await narrow.keyboard.press('Enter')
    await narrow.getByTestId('products').waitFor()
    await check(t, narrow, 'merchant-products-390')
    await narrow.goto(`${base}/admin/products/${second.id as string}`)
    await narrow.getByLabel('Name', { exact: true }).waitFor()
    await check(t, narrow, 'merchant-product-edit-390')
    await narrow.goto(`${base}/admin/products/new`)
    await narrow.getByLabel('Name', { exact: true }).waitFor()
    await check(t, narrow, 'merchant-product-new-390')
  })
})
