import t, { type Test } from 'tap'
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import type { Page } from 'playwright-core'
import { build, listen, registerUser, REVIEWER_ENV } from '../helper.ts'
import { createProduct } from '../plugins/commerce/fixtures.ts'
import { startAppServer, installHookApp } from '../plugins/checkout-hooks/fixtures.ts'
import { businessSlug } from '../plugins/storefront/fixtures.ts'
import { launch, screenshot } from './browser.ts'

const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8')

/** axe-core in the page (through the devtools protocol, so the page's CSP need not allow it): serious and critical violations. */
async function axeViolations (page: Page): Promise<string[]> {
  await page.evaluate(AXE)
  const violations = await page.evaluate(async () => {
    interface Violation { id: string, impact: string, nodes: Array<{ target: string[] }> }
    const axe = (window as unknown as { axe: { run: (context: Document) => Promise<{ violations: Violation[] }> } }).axe
    const result = await axe.run(document)
    return result.violations.map((v) => ({ id: v.id, impact: v.impact, targets: v.nodes.map((n) => n.target.join(' ')) }))
  })
  return violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id}: ${v.targets.join(', ')}`)
}

/** No sideways scrolling at this width. */
async function fitsWidth (page: Page): Promise<boolean> {
  return await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)
}

const REASON = 'At most 3 loaves of one kind per order, please.'
const DISCOUNT_REASON = 'Bakery club: 10% off every order'
const ICON = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 28 28"><rect width="28" height="28" rx="6" fill="#c2410c"/><circle cx="14" cy="14" r="7" fill="#fff"/></svg>'

t.test('a customer buys on the storefront: product, cart, checkout with the apps\' hooks, payment and confirmation', async (t) => {
  const app = await build(t, { env: REVIEWER_ENV })
  await listen(app)
  // The app's hooks, served for real on 127.0.0.1: a delivery fee, a discount with its reason, a
  // quantity rule, a payment method (and one with a hostile icon) and its payment session.
  const provider = await startAppServer(t, {
    '/base/rates': ({ body }) => ({ json: { fee: body.data.deliveryMethod === 'DELIVERY' ? 450 : 0 } }),
    '/base/discounts': ({ body }) => ({ json: { discount: Math.floor(body.data.subtotal / 10), reason: DISCOUNT_REASON } }),
    '/base/validate': ({ body }) => ({ json: body.data.items.some((item: { quantity: number }) => item.quantity > 3) ? { valid: false, reason: REASON } : { valid: true } }),
    '/base/methods': () => ({
      json: {
        methods: [
          { id: 'crumb', name: 'Crumb Pay', description: 'Pay with your phone', icon: 'https://cdn.crumbpay.example/icon.svg' },
          { id: 'sneaky', name: 'Sneaky Pay', icon: 'javascript:alert(1)' }
        ]
      }
    }),
    '/base/pay': ({ body }) => ({
      json: {
        paymentUrl: `https://pay.crumbpay.example/i/${body.data.orderId}`,
        qrCode: `https://pay.crumbpay.example/i/${body.data.orderId}`,
        invoiceId: `cp-${body.data.orderId.slice(-6)}`,
        expiresAt: new Date(Date.now() + 15 * 60_000).toISOString()
      }
    })
  })
  const developer = await registerUser(app, 'DEVELOPER')
  const merchant = await registerUser(app, 'MERCHANT', { businessName: 'Rosa’s Bakery' })
  const slug = await businessSlug(app, merchant)
  const hooks = [
    { hookPoint: 'checkout.shipping_rates', url: '/rates' }, { hookPoint: 'order.calculate_discounts', url: '/discounts' },
    { hookPoint: 'order.validate', url: '/validate' }, { hookPoint: 'checkout.payment_methods', url: '/methods' },
    { hookPoint: 'checkout.create_payment', url: '/pay' }
  ]
  const { installed } = await installHookApp(app, developer, merchant, provider.url, hooks, ['read_orders', 'write_payments', 'write_shipping', 'write_discounts'])
  const appName = (await app.inject({ url: '/merchant/installations', headers: merchant.auth })).json().data[0].app.name as string
  const loaf = await createProduct(app, merchant, { name: 'Country Loaf', price: 650, stock: 40, description: 'Slow-rising sourdough, baked every morning.' })
  const storeUrl = app.origins.storeUrl(slug)
  const browser = await launch(t)

  for (const width of [1280, 390]) {
    await t.test(`at ${width} px`, async (t: Test) => {
      const context = await browser.newContext({ viewport: { width, height: 900 } })
      t.teardown(() => context.close())
      // the app's icon host, answered in the browser (this machine has no network)
      await context.route('https://cdn.crumbpay.example/**', (route) => route.fulfill({ contentType: 'image/svg+xml', body: ICON }))
      const page = await context.newPage()
      const cspViolations: string[] = []
      page.on('console', (message) => { if (/Content Security Policy/i.test(message.text())) cspViolations.push(message.text()) })
      page.on('dialog', (dialog) => { t.fail(`a dialog opened: ${dialog.message()}`); void dialog.dismiss() })

      // The customer opens the product from the store's home page, which has the Cart link as every shop page has
      await page.goto(storeUrl)
      const cartLink = page.getByRole('navigation', { name: 'Shop' }).getByRole('link', { name: /^Cart/ })
      t.equal(await cartLink.count(), 1, 'home: the header has the Cart link')
      await page.locator('[data-cart-count][aria-label="0 items"]').waitFor()
      t.equal(await page.locator('[data-cart-count]').innerText(), '0', 'home: with the cart\'s count')
      await page.getByRole('link', { name: 'Country Loaf' }).click()
      await page.getByRole('heading', { level: 1, name: 'Country Loaf' }).waitFor()
      t.ok(await fitsWidth(page), 'product page: no sideways scrolling')
      t.same(await axeViolations(page), [], 'product page: no serious axe violation')
      await screenshot(page, `shop-product-${width}`)

      // By keyboard: type a quantity, Enter adds to the cart
      await page.getByLabel('Quantity', { exact: true }).fill('4')
      await page.getByLabel('Quantity', { exact: true }).press('Enter')
      await page.getByText('Added 4 × Country Loaf to your cart.').waitFor()
      t.equal(await page.locator('[data-cart-count]').innerText(), '4')

      // Back on the home page the count says what the cart holds; its Cart link opens the cart, by keyboard
      await page.goto(storeUrl)
      await page.locator('[data-cart-count][aria-label="4 items"]').waitFor()
      t.equal(await page.locator('[data-cart-count]').innerText(), '4', 'home: the count of the cart')
      t.ok(await fitsWidth(page), 'home: no sideways scrolling')
      t.same(await axeViolations(page), [], 'home: no serious axe violation')
      await screenshot(page, `shop-home-${width}`)
      await cartLink.focus()
      await page.keyboard.press('Enter')
      await page.waitForURL(/\/cart$/)

      // The cart survives a reload
      await page.reload()
      await page.getByRole('link', { name: 'Country Loaf' }).waitFor()
      t.equal(await page.getByLabel('Quantity', { exact: true }).inputValue(), '4', 'the cart is kept across a reload')
      t.ok(await fitsWidth(page), 'cart: no sideways scrolling')
      t.same(await axeViolations(page), [], 'cart: no serious axe violation')
      await screenshot(page, `shop-cart-${width}`)

      // Checkout with DELIVERY: the app's fee and discount with its reason, live
      await page.getByRole('link', { name: 'Check out' }).click()
      await page.waitForURL(/\/checkout$/)
      await page.getByText(`Delivery fee set by the app ${appName}`).waitFor()
      const summary = page.locator('[data-summary]')
      t.match(await summary.innerText(), /Delivery\s+\$4\.50/, 'the app\'s shipping fee')
      t.match(await summary.innerText(), /App discounts\s+−\$2\.60/, 'the app\'s discount')
      t.match(await summary.innerText(), /Total\s+\$27\.90/, '26.00 − 2.60 + 4.50')
      t.match(await summary.innerText(), DISCOUNT_REASON, 'with its reason')
      t.equal(await page.locator('img.method-icon').count(), 1, 'only the http(s) icon is shown')
      const icon = page.locator('img.method-icon')
      t.equal(await icon.getAttribute('src'), 'https://cdn.crumbpay.example/icon.svg')
      t.ok(await icon.evaluate(async (img: HTMLImageElement) => { await img.decode(); return img.naturalWidth > 0 }), 'the icon loads under the storefront CSP')
      await page.getByLabel('Address', { exact: true }).fill('12 Harbour Road')
      await page.getByLabel('Area or city', { exact: true }).fill('Old Town')
      await page.getByLabel('Name', { exact: true }).fill('Tomás Ortega')
      await page.getByLabel('Email', { exact: true }).fill('tomas@example.com')
      const crumb = page.getByRole('radio', { name: /Crumb Pay/ })
      await crumb.focus()
      await page.keyboard.press('Space')
      t.ok(await crumb.isChecked(), 'the app\'s method chosen by keyboard')
      t.ok(await fitsWidth(page), 'checkout: no sideways scrolling')
      t.same(await axeViolations(page), [], 'checkout: no serious axe violation')
      await screenshot(page, `shop-checkout-${width}`)

      // order.validate refuses: the app's reason next to Place order
      await page.getByRole('button', { name: 'Place order' }).focus()
      await page.keyboard.press('Enter')
      const refusal = page.locator('#place-order-error')
      await refusal.getByText(REASON).waitFor()
      await screenshot(page, `shop-checkout-refused-${width}`)
      t.equal(new URL(page.url()).pathname.endsWith('/checkout'), true, 'still on the checkout')

      // Fix the cart: 3 loaves
      await page.getByRole('link', { name: 'Edit cart' }).click()
      await page.getByLabel('Quantity', { exact: true }).fill('3')
      await page.getByLabel('Quantity', { exact: true }).press('Tab')
      await page.getByText('Subtotal $19.50').waitFor()
      await page.getByRole('link', { name: 'Check out' }).click()
      await page.getByText(`Delivery fee set by the app ${appName}`).waitFor()
      await page.getByLabel('Address', { exact: true }).fill('12 Harbour Road')
      await page.getByLabel('Name', { exact: true }).fill('Tomás Ortega')
      await page.getByRole('radio', { name: /Crumb Pay/ }).check()
      await page.getByRole('button', { name: 'Place order' }).click()

      // The confirmation: order number, status, the app's payment link, QR code and invoice
      await page.waitForURL(/\/orders\/ord_/)
      const orderId = new URL(page.url()).pathname.split('/').at(-1) as string
      const order = (await app.inject({ url: `/merchant/orders/${orderId}`, headers: merchant.auth })).json()
      t.match(order, { status: 'PENDING', paymentMethod: `${installed.installationId}:crumb`, deliveryFee: 450, discount: 195, items: [{ quantity: 3 }] })
      t.equal(await page.locator('[data-order-number]').innerText(), order.orderNumber)
      t.equal(await page.locator('[data-order-status]').innerText(), 'Received, waiting for the store', 'words, not the API\'s code')
      t.equal(await page.locator('[data-payment-status]').innerText(), 'Not paid yet')
      const payLink = page.getByRole('link', { name: 'Open the payment page' })
      t.equal(await payLink.getAttribute('href'), `https://pay.crumbpay.example/i/${orderId}`)
      const qr = page.getByRole('img', { name: `QR code to pay for order ${order.orderNumber}` })
      await qr.waitFor()
      t.ok(await qr.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0), 'the QR code is drawn')
      t.match(await page.locator('[data-invoice-id]').innerText(), /^cp-/)
      t.ok(await page.locator('[data-expires-at]').isVisible(), 'with its deadline')
      t.equal(await page.locator('[data-cart-count]').innerText(), '0', 'the cart is emptied')
      t.ok(await fitsWidth(page), 'confirmation: no sideways scrolling')
      t.same(await axeViolations(page), [], 'confirmation: no serious axe violation')
      await screenshot(page, `shop-confirmation-${width}`)
      await page.reload()
      t.equal(await page.locator('[data-order-number]').innerText(), order.orderNumber, 'the confirmation survives a reload')

      // Back to the checkout after the order (from the back/forward cache or loaded again): the cart is empty, said
      // alone, not beside the form and its "Loading payment methods…"
      await page.goBack()
      await page.waitForURL(/\/checkout$/)
      await page.getByText('Your cart is empty.').waitFor()
      t.equal(await page.locator('[data-checkout-form]').isVisible(), false, 'back after the order: no checkout form left')
      await page.goto(`${storeUrl}/checkout`)
      await page.getByText('Your cart is empty.').waitFor()
      t.equal(await page.getByText('Loading payment methods…').isVisible(), false, 'empty cart: no loading text beside it')
      t.equal(await page.locator('[data-checkout-form]').isVisible(), false, 'empty cart: no checkout form')
      t.ok(await fitsWidth(page), 'empty checkout: no sideways scrolling')
      t.same(await axeViolations(page), [], 'empty checkout: no serious axe violation')
      await screenshot(page, `shop-checkout-empty-${width}`)

      t.same(cspViolations, [], 'the storefront CSP allowed everything the pages need')
    })
  }
  t.equal((await app.inject({ url: `/merchant/products/${loaf.id}`, headers: merchant.auth })).json().stock, 40 - 6, 'two orders of 3 hold their stock')
})
