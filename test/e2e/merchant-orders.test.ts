import t from 'tap'
import type { Page } from 'playwright-core'
import type { Test } from 'tap'
import { build, createApp, listen, oauthInstall, publishApp, registerUser, until, REVIEWER_ENV } from '../helper.ts'
import { startAppServer, shop, cart, customer } from '../plugins/checkout-hooks/fixtures.ts'
import { fitsWidth, launch, logIn, screenshot, seriousAxeViolations } from './browser.ts'

async function check (t: Test, page: Page, name: string): Promise<void> {
  t.same(await seriousAxeViolations(page), [], `${name}: no serious or critical axe violation`)
  t.ok(await fitsWidth(page), `${name}: no sideways scrolling`)
  await screenshot(page, name)
}

t.test('merchant Orders in Chromium: the app’s payment method and discount, a status move that reaches the app', async (t) => {
  const app = await build(t, { env: REVIEWER_ENV })
  const base = await listen(app)
  const developer = await registerUser(app, 'DEVELOPER')
  const { merchant, slug, pizza, soda } = await shop(app)

  // a third-party app with a payment method, a discount and a webhook receiver, installed through OAuth
  const receiver = await startAppServer(t, {
    '/base': () => ({ json: {} }),
    '/base/methods': () => ({ json: { methods: [{ id: 'wallet', name: 'Demo Wallet' }] } }),
    '/base/discounts': () => ({ json: { discount: 270, reason: 'Loyalty reward: 10% off' } }),
    '/base/validate': () => ({ json: { valid: true } }),
    '/base/pay': ({ body }) => ({ json: { invoiceId: `inv-${body.data.orderId as string}`, paymentUrl: 'https://pay.example.com/i/1' } })
  })
  const { app: created, clientSecret } = await createApp(app, developer, {
    name: 'Loyalty Wallet', webhookUrl: `${receiver.url}/base`, scopes: ['read_orders', 'write_payments', 'write_discounts'], webhookEvents: ['order.status_changed']
  })
  const hooks = [
    { hookPoint: 'checkout.payment_methods', url: '/methods' }, { hookPoint: 'checkout.create_payment', url: '/pay' },
    { hookPoint: 'order.calculate_discounts', url: '/discounts' }, { hookPoint: 'order.validate', url: '/validate' }
  ]
  t.equal((await app.inject({ method: 'PUT', url: `/developer/apps/${created.id}/manifest`, headers: developer.auth, payload: { manifest: { hooks } } })).statusCode, 200)
  await publishApp(app, developer, created.id)
  const installed = await oauthInstall(app, merchant, { clientId: created.clientId, clientSecret, redirectUrl: created.redirectUrl })
  // the real checkout, as the storefront runs it
  const placed = await app.storefront.inject({ method: 'POST', url: `/store/${slug}/api/orders`, payload: { ...cart(pizza.id, soda.id), customer, paymentMethod: `${installed.installationId}:wallet` } })
  t.equal(placed.statusCode, 201, placed.body)
  const order = placed.json().order
  const cash = (await app.storefront.inject({ method: 'POST', url: `/store/${slug}/api/orders`, payload: { ...cart(pizza.id, soda.id), customer: { name: 'Bo' }, paymentMethod: 'CASH' } })).json().order
  await app.inject({ method: 'PATCH', url: `/merchant/orders/${cash.id as string}/status`, headers: merchant.auth, payload: { status: 'CANCELLED' } })

  const browser = await launch(t)
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } })
  await page.goto(`${base}/login?next=${encodeURIComponent('/admin/orders')}`)
  await logIn(page, merchant.email, 'correct-horse')
  t.equal(new URL(page.url()).pathname, '/admin/orders', 'a next parameter wins over the role’s home')
  await page.getByTestId('orders').waitFor()
  t.match(await page.getByTestId('orders').innerText(), new RegExp(`#${order.orderNumber as string}[\\s\\S]*Ada[\\s\\S]*\\$27\\.30[\\s\\S]*Pending`))
  await check(t, page, 'merchant-orders-1280')

  await page.getByLabel('Status').selectOption('CANCELLED')
  await page.waitForURL(/status=CANCELLED/)
  // the cancelled order was on the unfiltered page too: the filtered page has come once the pending one has gone
  await page.getByTestId('orders').getByText(`#${order.orderNumber as string}`).waitFor({ state: 'detached' })
  await page.getByText(`#${cash.orderNumber as string}`).waitFor()
  t.equal(await page.getByTestId('orders').getByRole('row').count(), 2, 'the cancelled order only')
  await page.getByLabel('Status').selectOption('')
  await page.getByLabel('Order number').fill(`#${order.orderNumber as string}`)
  await page.getByLabel('Order number').press('Enter')
  await page.waitForURL(/number=/)
  await page.getByText('1 order', { exact: true }).waitFor()
  await page.getByLabel('Order number').fill('99999')
  await page.getByRole('button', { name: 'Find' }).click()
  await page.getByText('No order matches.').waitFor()
  await check(t, page, 'merchant-orders-none-1280')
  await page.getByRole('link', { name: 'Show all orders' }).click()
  await page.getByRole('link', { name: `#${order.orderNumber as string}` }).click()

  await page.getByTestId('hook-calls').waitFor()
  t.match(await page.getByTestId('payment-method').innerText(), /Demo Wallet\s+from the app\s+Loyalty Wallet/, 'the method and the app that supplied it')
  t.match(await page.getByTestId('discounts').innerText(), /\$2\.70 off from Loyalty Wallet: “Loyalty reward: 10% off”/, 'the discount with its reason')
  const outcomes = await page.getByTestId('hook-calls').innerText()
  t.match(outcomes, /Payment methods[\s\S]*Offered Demo Wallet/)
  t.match(outcomes, /Validate[\s\S]*Passed/)
  t.match(outcomes, /Create payment[\s\S]*invoice inv-/)
  t.match(await page.locator('main').innerText(), /Ada[\s\S]*\+15550100[\s\S]*Delivery[\s\S]*1 Main St/, 'customer and delivery')
  t.same(await page.locator('main section button').allInnerTexts(), ['Mark as confirmed', 'Cancel order'], 'only the moves the state machine allows')
  await check(t, page, 'merchant-order-1280')

  await page.getByRole('button', { name: 'Mark as confirmed' }).focus()
  await page.keyboard.press('Enter')
  await page.getByText('Order moved to confirmed').waitFor()
  t.same(await page.locator('main section button').allInnerTexts(), ['Mark as preparing', 'Cancel order'], 'the next moves')
  t.equal((await app.inject({ url: `/merchant/orders/${order.id as string}`, headers: merchant.auth })).json().status, 'CONFIRMED')
  const statusChanges = async () => receiver.calls.filter((c) => c.path === '/base' && c.body?.event === 'order.status_changed' && c.body.data.orderId === order.id)
  const changed = await until(statusChanges, (calls) => calls.length > 0, 20_000)
  t.match(changed[0].body.data, { orderId: order.id, status: 'CONFIRMED', previousStatus: 'PENDING' }, 'the app’s receiver got order.status_changed')
  await screenshot(page, 'merchant-order-confirmed-1280')

  await t.test('at 390 px', async (t) => {
    const narrow = await browser.newPage({ viewport: { width: 390, height: 844 } })
    await narrow.goto(`${base}/login`)
    await logIn(narrow, merchant.email, 'correct-horse')
    await narrow.goto(`${base}/admin/orders`)
    await narrow.getByTestId('orders').waitFor()
    await check(t, narrow, 'merchant-orders-390')
    await narrow.goto(`${base}/admin/orders/${order.id as string}`)
    await narrow.getByTestId('hook-calls').waitFor()
    await check(t, narrow, 'merchant-order-390')
    await narrow.goto(`${base}/admin/orders/ord_nope`)
    await narrow.getByRole('alert').waitFor()
    t.match(await narrow.getByRole('alert').innerText(), /Order not found/, 'an unknown order: the API’s message')
  })
})
