import t, { type Test } from 'tap'
import type { Page } from 'playwright-core'
import { build, listen, registerUser, uniqueEmail, until, REVIEWER_ENV, type Session } from '../helper.ts'
import { startAppServer, installHookApp } from '../plugins/checkout-hooks/fixtures.ts'
import { fitsWidth, launch, screenshot, seriousAxeViolations, solidPng } from './browser.ts'

/**
 * Issue #24's whole story on a fresh platform, at 1280 and 390 px: a merchant registers, finds a home page,
 * creates a product with a picture that the store then shows; a customer buys it through the checkout hooks
 * of an installed app  (its delivery fee, its discount with its reason, one order.validate refusal, its
 * payment method with a link and a QR code) and the merchant's promo code; the merchant sees the order with the app's method and discount,
 * confirms it, and the app's receiver gets order.status_changed.
 */
const REASON = 'At most 2 of one kind per order, please.'
const DISCOUNT_REASON = 'Neighbourhood club: 10% off'

async function check (t: Test, page: Page, name: string): Promise<void> {
  t.same(await seriousAxeViolations(page), [], `${name}: no serious or critical axe violation`)
  t.ok(await fitsWidth(page), `${name}: no sideways scrolling`)
  await screenshot(page, name)
}

t.test('the merchant\'s store end to end: register, stock a product, a customer checks out through an app\'s hooks, the merchant confirms', async (t) => {
  const app = await build(t, { env: REVIEWER_ENV })
  const base = await listen(app)
  const receiver = await startAppServer(t, {
    '/base': () => ({ json: {} }),
    '/base/rates': ({ body }) => ({ json: { fee: body.data.deliveryMethod === 'DELIVERY' ? 250 : 0 } }),
    '/base/discounts': ({ body }) => ({ json: { discount: Math.floor(body.data.subtotal / 10), reason: DISCOUNT_REASON } }),
    '/base/validate': ({ body }) => ({ json: body.data.items.some((item: { quantity: number }) => item.quantity > 2) ? { valid: false, reason: REASON } : { valid: true } }),
    '/base/methods': () => ({ json: { methods: [{ id: 'corner', name: 'Corner Pay', description: 'Pay on your phone' }] } }),
    '/base/pay': ({ body }) => ({
      json: { paymentUrl: `https://pay.corner.example/i/${String(body.data.orderId)}`, qrCode: `https://pay.corner.example/i/${String(body.data.orderId)}`, invoiceId: 'cp-1' }
    })
  })
  const developer = await registerUser(app, 'DEVELOPER')
  const browser = await launch(t)

  for (const width of [1280, 390]) {
    await t.test(`at ${width} px`, async (t: Test) => {
      const context = await browser.newContext({ viewport: { width, height: 900 } })
      t.teardown(() => context.close())
      const page = await context.newPage()

      // 1. a merchant registers and lands on Admin
      const email = uniqueEmail('story')
      const businessName = `Corner Deli ${width}`
      await page.goto(`${base}/register`)
      await page.getByLabel('Merchant').check()
      await page.getByLabel('Name', { exact: true }).fill('Ines Corner')
      await page.getByLabel('Business name').fill(businessName)
      await page.getByLabel('Email').fill(email)
      await page.getByLabel(/^Password/).fill('correct-horse')
      await page.getByRole('button', { name: 'Create account' }).click()
      await page.waitForURL(`${base}/admin`)
      const login = (await app.inject({ method: 'POST', url: '/auth/login', payload: { email, password: 'correct-horse' } })).json()
      const merchant: Session = { token: login.token, userId: login.user.id, businessId: login.user.businessId, email, auth: { authorization: `Bearer ${login.token as string}` } }
      const business = (await app.inject({ url: '/merchant/business', headers: merchant.auth })).json()

      // 2. the new business already has a published home page
      const pages = (await app.inject({ url: '/merchant/pages', headers: merchant.auth })).json()
      t.match(pages.data, [{ slug: 'home', isPublished: true }], 'a published home page from the start')
      await page.goto(`${base}/admin/pages`)
      await page.getByRole('link', { name: 'Edit Home' }).waitFor()
      await check(t, page, `story-pages-${width}`)

      // an app with checkout hooks, installed on the new store (the install itself is covered by the consent tests)
      const hooks = [
        { hookPoint: 'checkout.shipping_rates', url: '/rates' }, { hookPoint: 'order.calculate_discounts', url: '/discounts' },
        { hookPoint: 'order.validate', url: '/validate' }, { hookPoint: 'checkout.payment_methods', url: '/methods' },
        { hookPoint: 'checkout.create_payment', url: '/pay' }
      ]
      const { installed } = await installHookApp(app, developer, merchant, receiver.url, hooks, ['read_orders', 'write_payments', 'write_shipping', 'write_discounts'])
      t.equal((await app.inject({ method: 'POST', url: '/merchant/promo-codes', headers: merchant.auth, payload: { code: 'CORNER1', amountOff: 100 } })).statusCode, 201)
      const registration = await app.inject({ method: 'POST', url: '/webhooks', headers: installed.auth, payload: { url: `${receiver.url}/base`, events: ['order.status_changed'] } })
      t.equal(registration.statusCode, 201, registration.body)

      // 3. the merchant creates a product with a picture
      await page.goto(`${base}/admin/products/new`)
      await page.getByLabel('Name', { exact: true }).fill('Olive Bread')
      await page.getByLabel('Price (USD)').fill('8')
      await page.getByLabel('Stock', { exact: true }).fill('10')
      await page.getByLabel('Picture').setInputFiles({ name: 'bread.png', mimeType: 'image/png', buffer: solidPng(48, 48, [180, 140, 60]) })
      await page.getByRole('button', { name: /^Create/ }).click()
      await page.getByText('Product created').waitFor()
      await page.getByTestId('product-picture').waitFor()
      await check(t, page, `story-product-${width}`)

      // 4. the store shows it, with its picture
      const store = await context.newPage()
      await store.goto(app.origins.storefrontOrigin(business.slug as string) + `/store/${business.slug as string}`)
      await store.getByRole('link', { name: 'Olive Bread' }).first().click()
      await store.getByRole('heading', { level: 1, name: 'Olive Bread' }).waitFor()
      const picture = store.locator('img.shop-product-image')
      await picture.waitFor()
      t.ok(await picture.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth === 48), 'the product page shows the uploaded picture')
      t.match(await picture.getAttribute('src'), /\/media\/products\//, 'served from the platform\'s product media')

      // 5. a customer: 3 in the cart, DELIVERY, the app's fee and discount with its reason
      await store.getByLabel('Quantity', { exact: true }).fill('3')
      await store.getByLabel('Quantity', { exact: true }).press('Enter')
      await store.getByText('Added 3 × Olive Bread to your cart.').waitFor()
      await store.getByRole('link', { name: /^Cart/ }).click()
      await store.getByRole('link', { name: 'Check out' }).click()
      await store.getByText(/Delivery fee set by the app/).waitFor()
      const summary = store.locator('[data-summary]')
      t.match(await summary.innerText(), /Delivery\s+\$2\.50/, 'the app\'s delivery fee')
      t.match(await summary.innerText(), /App discounts\s+−\$2\.40/, 'the app\'s discount')
      t.match(await summary.innerText(), DISCOUNT_REASON, 'with its reason')
      await store.getByLabel('Address', { exact: true }).fill('3 Market Lane')
      await store.getByLabel('Name', { exact: true }).fill('Ana Ruiz')
      await store.getByRole('radio', { name: /Corner Pay/ }).check()
      await check(t, store, `story-checkout-${width}`)

      // refused once by order.validate, with the app's reason beside Place order
      await store.getByRole('button', { name: 'Place order' }).click()
      await store.locator('#place-order-error').getByText(REASON).waitFor()

      // the customer fixes the cart and pays with the app's method
      await store.getByRole('link', { name: 'Edit cart' }).click()
      await store.getByLabel('Quantity', { exact: true }).fill('2')
      await store.getByLabel('Quantity', { exact: true }).press('Tab')
      await store.getByText('Subtotal $16.00').waitFor()
      await store.getByRole('link', { name: 'Check out' }).click()
      await store.getByText(/Delivery fee set by the app/).waitFor()
      await store.getByLabel('Address', { exact: true }).fill('3 Market Lane')
      await store.getByLabel('Name', { exact: true }).fill('Ana Ruiz')
      await store.getByRole('radio', { name: /Corner Pay/ }).check()
      // with the merchant's promo code, applied before the app's discount
      await store.getByLabel('Promo code', { exact: true }).fill('corner1')
      await store.getByRole('button', { name: 'Apply' }).click()
      await summary.getByText('Promo CORNER1').waitFor()
      t.match(await summary.innerText(), /Promo CORNER1\s+−\$1\.00/, 'the promo code\'s discount')
      t.match(await summary.innerText(), /App discounts\s+−\$1\.60/, 'the app\'s discount beside it')
      await store.getByRole('button', { name: 'Place order' }).click()

      // 6. the confirmation: order number, the payment link and QR code
      await store.waitForURL(/\/orders\/ord_/)
      const orderId = new URL(store.url()).pathname.split('/').at(-1) as string
      const order = (await app.inject({ url: `/merchant/orders/${orderId}`, headers: merchant.auth })).json()
      t.equal(await store.locator('[data-order-number]').innerText(), order.orderNumber)
      t.equal(await store.getByRole('link', { name: 'Open the payment page' }).getAttribute('href'), `https://pay.corner.example/i/${orderId}`)
      await store.getByRole('img', { name: `QR code to pay for order ${order.orderNumber as string}` }).waitFor()
      await check(t, store, `story-confirmation-${width}`)

      // 7. the merchant sees the order with the app's method and discount and confirms it
      await page.goto(`${base}/admin/orders/${orderId}`)
      await page.getByTestId('hook-calls').waitFor()
      t.match(await page.getByTestId('payment-method').innerText(), /Corner Pay\s+from the app/, 'the app\'s method')
      t.match(await page.getByTestId('discounts').innerText(), new RegExp(`\\$1\\.60 off from .*${DISCOUNT_REASON}`), 'the app\'s discount with its reason')
      t.match(await page.getByTestId('discounts').innerText(), /\$1\.00 off with your promo code CORNER1/, 'and the promo code')
      await check(t, page, `story-order-${width}`)
      await page.getByRole('button', { name: 'Mark as confirmed' }).click()
      await page.getByText('Order moved to confirmed').waitFor()

      // 8. the app's receiver gets order.status_changed
      const changes = await until(async () => receiver.calls.filter((c) => c.path === '/base' && c.body?.event === 'order.status_changed' && c.body.data.orderId === orderId), (calls) => calls.length > 0)
      t.match(changes[0].body.data, { orderId, status: 'CONFIRMED', previousStatus: 'PENDING' }, 'the app heard of the move')
    })
  }
})
