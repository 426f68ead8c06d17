import t from 'tap'
import { and, eq } from 'drizzle-orm'
import { orders, outboxEvents } from '../../../server/db/schema/index.ts'
import { PAYMENT_EXPIRY_JOB } from '../../../plugins/commerce/payment-expiry.ts'
import { build, registerUser, releaseDelayedJobs, REVIEWER_ENV, until } from '../../helper.ts'
import { TestClock } from '../../clock.ts'
import { startAppServer, installHookApp, shop, cart, customer } from './fixtures.ts'

const PAYMENT_HOOKS = [{ hookPoint: 'checkout.payment_methods', url: '/methods' }, { hookPoint: 'checkout.create_payment', url: '/pay', timeout: 3000 }]

t.test('checkout.create_payment', async (t) => {
  const clock = new TestClock()
  const app = await build(t, { env: REVIEWER_ENV, clock })
  const developer = await registerUser(app, 'DEVELOPER')
  const { merchant, slug, pizza, soda } = await shop(app)
  const expiresAt = new Date(clock.nowMs() + 15 * 60_000).toISOString()
  let payAnswer: Record<string, unknown> = { status: 200 }
  const provider = await startAppServer(t, {
    '/base/methods': () => ({ json: { methods: [{ id: 'qr', name: 'QR pay', description: 'Scan to pay' }] } }),
    '/base/pay': ({ body }) => payAnswer.status === 200
      ? { json: { paymentUrl: `https://pay.example.com/i/${body.data.orderId}`, qrCode: 'QR-DATA', invoiceId: `inv-${body.data.orderId}`, expiresAt } }
      : { status: payAnswer.status as number, json: {} }
  })
  const bystander = await startAppServer(t, {
    '/base/methods': () => ({ json: { methods: [{ id: 'qr', name: 'Another QR' }] } }),
    '/base/pay': () => ({ json: { invoiceId: 'wrong-app' } })
  })
  const owner = await installHookApp(app, developer, merchant, provider.url, PAYMENT_HOOKS, ['write_payments'])
  await installHookApp(app, developer, merchant, bystander.url, PAYMENT_HOOKS, ['write_payments'])
  const method = `${owner.installed.installationId}:qr`

  t.test('the owning app creates the payment session', async (t) => {
    const quote = (await app.storefront.inject({ method: 'POST', url: `/store/${slug}/api/checkout/quote`, payload: cart(pizza.id, soda.id) })).json()
    t.match(quote.paymentMethods.find((m: { id: string }) => m.id === method), { name: 'QR pay', description: 'Scan to pay', provider: 'app', appId: owner.appId })

    const placed = await app.storefront.inject({ method: 'POST', url: `/store/${slug}/api/orders`, payload: { ...cart(pizza.id, soda.id), customer, paymentMethod: method } })
    t.equal(placed.statusCode, 201)
    const { order, payment } = placed.json()
    t.match(payment, { paymentUrl: `https://pay.example.com/i/${order.id}`, qrCode: 'QR-DATA', invoiceId: `inv-${order.id}`, expiresAt, qrImage: /^data:image\/svg\+xml;base64,/ })
    t.same(Object.keys(payment).sort(), ['expiresAt', 'invoiceId', 'paymentUrl', 'qrCode', 'qrImage'], 'the app\'s answer, and its qrCode drawn for the shop page')
    t.match(order, { paymentMethod: method, paymentStatus: 'PENDING', amount: 2700 + 300 })

    const request = provider.calls.find((c) => c.path === '/base/pay')!
    t.same(request.body.data, { orderId: order.id, amount: '3000', currency: 'USD', paymentMethodId: 'qr', businessId: merchant.businessId, description: `Order ${order.orderNumber}` }, 'amount is a string of minor units; the app sees its own method id')
    t.equal(bystander.calls.filter((c) => c.path === '/base/pay').length, 0, 'only the app that owns the method is asked')

    const [row] = await app.db.select().from(orders).where(eq(orders.id, order.id))
    t.equal(row.paymentInvoiceId, `inv-${order.id}`)
    t.equal(row.paymentExpiresAt?.toISOString(), expiresAt)
  })

  t.test('a provider that fails: 502, the order is saved and unpaid', async (t) => {
    payAnswer = { status: 500 }
    const placed = await app.storefront.inject({ method: 'POST', url: `/store/${slug}/api/orders`, payload: { ...cart(pizza.id, soda.id), customer, paymentMethod: method } })
    t.equal(placed.statusCode, 502)
    const body = placed.json()
    t.match(body, { statusCode: 502, error: 'Bad Gateway', message: /payment provider did not answer \(answered HTTP 500\)/, orderId: String })
    const [row] = await app.db.select().from(orders).where(eq(orders.id, body.orderId))
    t.match(row, { paymentStatus: 'PENDING', paymentInvoiceId: null })
  })

  t.test('an unpaid app payment expires at expiresAt (payment.expired)', async (t) => {
    const soon = new Date(clock.nowMs() + 10 * 60_000).toISOString()
    provider.handlers['/base/pay'] = ({ body }) => ({ json: { invoiceId: `inv-${body.data.orderId}`, expiresAt: soon } })
    const placed = await app.storefront.inject({ method: 'POST', url: `/store/${slug}/api/orders`, payload: { ...cart(pizza.id, soda.id), customer, paymentMethod: method } })
    t.equal(placed.statusCode, 201)
    const orderId = placed.json().order.id
    const paymentStatus = async () => (await app.db.select().from(orders).where(eq(orders.id, orderId)))[0].paymentStatus
    t.equal(await paymentStatus(), 'PENDING', 'not before its time')
    clock.advance(10 * 60_000)
    t.ok(await releaseDelayedJobs(app, PAYMENT_EXPIRY_JOB) >= 1, 'the deadline passed: its expiry job is due')
    t.equal(await until(paymentStatus, (status) => status === 'EXPIRED'), 'EXPIRED')
    const expired = await app.db.select().from(outboxEvents).where(and(eq(outboxEvents.businessId, merchant.businessId), eq(outboxEvents.event, 'payment.expired')))
    t.match(expired.map((e) => e.data), [{ orderId, invoiceId: `inv-${orderId}`, amount: 3000, currency: 'USD', paymentMethodId: method }])
  })

  t.test('an unknown or foreign payment method is refused', async (t) => {
    const response = await app.storefront.inject({ method: 'POST', url: `/store/${slug}/api/orders`, payload: { ...cart(pizza.id, soda.id), customer, paymentMethod: 'inst_nobody:qr' } })
    t.equal(response.statusCode, 422)
    t.equal((await app.storefront.inject({ method: 'POST', url: '/store/no-such-store/api/orders', payload: { ...cart(pizza.id, soda.id), customer, paymentMethod: 'CASH' } })).statusCode, 404)
  })
})
