import t from 'tap'
import { eq } from 'drizzle-orm'
import { orders, products } from '../../../server/db/schema/index.ts'
import type { App } from '../../../server/app.ts'
import { PAYMENT_EXPIRY_JOB, expireIfDue } from '../../../plugins/commerce/payment-expiry.ts'
import { build, registerUser, REVIEWER_ENV } from '../../helper.ts'
import { TestClock } from '../../clock.ts'
import { createProduct, eventsOf } from '../commerce/fixtures.ts'
import { startAppServer, installHookApp } from '../checkout-hooks/fixtures.ts'
import { businessSlug } from './fixtures.ts'

const customer = { name: 'Guest', phone: '+15550100' }
const cashOrder = (productId: string, quantity: number) => ({ items: [{ productId, quantity }], customer, deliveryMethod: 'PICKUP', paymentMethod: 'CASH' })

async function stockOf (app: App, productId: string): Promise<number> {
  const [row] = await app.db.select({ stock: products.stock }).from(products).where(eq(products.id, productId))
  return row.stock
}

/** The payment.expire job the order's transaction scheduled (what the worker will run at its deadline). */
async function expiryJob (app: App, orderId: string) {
  const { rows } = await app.database.executeSql("select data, start_after as \"startAfter\" from pgboss.job where name = $1 and data->>'orderId' = $2", [PAYMENT_EXPIRY_JOB, orderId])
  return rows as Array<{ data: { businessId: string, orderId: string, expiresAt: string }, startAfter: Date }>
}

const minutesFromNow = (minutes: number) => new Date(Date.now() + minutes * 60_000)

t.test('an unpaid storefront order holds its stock until its payment expires (PAYMENT_EXPIRY_MINUTES, every method)', async (t) => {
  const clock = new TestClock()
  const app = await build(t, { env: { PAYMENT_EXPIRY_MINUTES: '45' }, clock })
  const merchant = await registerUser(app, 'MERCHANT')
  const slug = await businessSlug(app, merchant)
  const bread = await createProduct(app, merchant, { name: 'Sourdough', price: 500, stock: 6, lowStockThreshold: 2 })
  const place = (body: Record<string, unknown>) => app.storefront.inject({ method: 'POST', url: `/store/${slug}/api/orders`, payload: body })

  const before = clock.nowMs()
  const placed = await place(cashOrder(bread.id, 6))
  t.equal(placed.statusCode, 201, placed.body)
  const { order, paymentExpiresAt } = placed.json()
  const deadline = new Date(paymentExpiresAt).getTime()
  t.ok(deadline >= before + 45 * 60_000 && deadline <= clock.nowMs() + 45 * 60_000, 'a CASH order is held for PAYMENT_EXPIRY_MINUTES')
  t.equal(await stockOf(app, bread.id), 0, 'the stock is held')
  t.equal((await place(cashOrder(bread.id, 1))).statusCode, 409, 'nobody else can take it meanwhile')

  const [job] = await expiryJob(app, order.id)
  t.equal(job?.data.expiresAt, paymentExpiresAt, 'the expiry job was scheduled with the order')
  t.equal(new Date(job.startAfter).toISOString(), paymentExpiresAt, 'for the deadline')

  t.equal(await expireIfDue(app.db, job.data, clock.now()), 'rescheduled', 'before the deadline nothing is released')
  t.equal(await stockOf(app, bread.id), 0)
  clock.advance(46 * 60_000)
  t.equal(await expireIfDue(app.db, job.data, clock.now()), 'expired', 'at the deadline the job expires it')
  t.equal(await stockOf(app, bread.id), 6, 'the stock is back on the shelf')
  const [row] = await app.db.select().from(orders).where(eq(orders.id, order.id))
  t.match(row, { status: 'CANCELLED', paymentStatus: 'EXPIRED' })
  t.same((await eventsOf(app, merchant.businessId, 'order.cancelled')).map((e) => e.data.orderId), [order.id], 'order.cancelled tells the apps')
  t.equal((await eventsOf(app, merchant.businessId, 'product.back_in_stock')).length, 1, 'and the product is back in stock')
  t.equal(await expireIfDue(app.db, job.data, clock.now()), 'settled', 'a second run changes nothing')
  t.equal(await stockOf(app, bread.id), 6, 'never restocked twice')
  t.equal((await place(cashOrder(bread.id, 6))).statusCode, 201, 'the next customer can buy it')
})

t.test('an order the merchant accepted keeps its stock (a CASH order is paid on delivery)', async (t) => {
  const app = await build(t)
  const merchant = await registerUser(app, 'MERCHANT')
  const slug = await businessSlug(app, merchant)
  const cake = await createProduct(app, merchant, { name: 'Cake', price: 900, stock: 3 })
  const placed = await app.storefront.inject({ method: 'POST', url: `/store/${slug}/api/orders`, payload: cashOrder(cake.id, 2) })
  const { order, paymentExpiresAt } = placed.json()
  t.ok(new Date(paymentExpiresAt).getTime() <= Date.now() + 30 * 60_000, 'PAYMENT_EXPIRY_MINUTES defaults to 30')
  const confirmed = await app.inject({ method: 'PATCH', url: `/merchant/orders/${order.id}/status`, headers: merchant.auth, payload: { status: 'CONFIRMED' } })
  t.equal(confirmed.statusCode, 200, confirmed.body)
  const [job] = await expiryJob(app, order.id)
  t.equal(await expireIfDue(app.db, job.data, minutesFromNow(31)), 'settled')
  t.equal(await stockOf(app, cake.id), 1, 'still held')
  const [row] = await app.db.select().from(orders).where(eq(orders.id, order.id))
  t.match(row, { status: 'CONFIRMED', paymentStatus: 'PENDING' })
})

t.test('an app payment holds the stock until the earlier of its expiresAt and the platform\'s deadline', async (t) => {
  const app = await build(t, { env: REVIEWER_ENV })
  const developer = await registerUser(app, 'DEVELOPER')
  const merchant = await registerUser(app, 'MERCHANT')
  const slug = await businessSlug(app, merchant)
  const pie = await createProduct(app, merchant, { name: 'Pie', price: 700, stock: 4 })
  let expiresAt = minutesFromNow(24 * 60).toISOString()
  const provider = await startAppServer(t, {
    '/base/methods': () => ({ json: { methods: [{ id: 'wallet', name: 'Wallet' }] } }),
    '/base/pay': ({ body }) => ({ json: { paymentUrl: `https://pay.example.com/${body.data.orderId}`, qrCode: `https://pay.example.com/${body.data.orderId}`, invoiceId: 'inv-1', expiresAt } })
  })
  const hooks = [{ hookPoint: 'checkout.payment_methods', url: '/methods' }, { hookPoint: 'checkout.create_payment', url: '/pay' }]
  const { installed } = await installHookApp(app, developer, merchant, provider.url, hooks, ['write_payments'])
  const pay = (quantity: number) => app.storefront.inject({
    method: 'POST', url: `/store/${slug}/api/orders`, payload: { ...cashOrder(pie.id, quantity), paymentMethod: `${installed.installationId}:wallet` }
  })

  const late = await pay(2)
  t.equal(late.statusCode, 201, late.body)
  const body = late.json()
  t.ok(new Date(body.paymentExpiresAt).getTime() <= Date.now() + 30 * 60_000, 'a day-long invoice still releases the stock after PAYMENT_EXPIRY_MINUTES')
  t.equal(body.payment.expiresAt, body.paymentExpiresAt, 'the customer is told the real deadline')
  t.match(body.payment.qrImage, /^data:image\/svg\+xml;base64,/, 'the qrCode is drawn as an SVG image')
  t.match(Buffer.from(body.payment.qrImage.split(',')[1], 'base64').toString(), /^<svg[^>]*xmlns="http:\/\/www\.w3\.org\/2000\/svg"/)
  const [lateRow] = await app.db.select().from(orders).where(eq(orders.id, body.order.id))
  t.equal(lateRow.paymentExpiresAt?.toISOString(), body.paymentExpiresAt)

  expiresAt = minutesFromNow(10).toISOString()
  const soon = (await pay(2)).json()
  t.equal(soon.paymentExpiresAt, expiresAt, 'an earlier app deadline wins')
  t.equal(await stockOf(app, pie.id), 0)
  const jobs = await expiryJob(app, soon.order.id)
  t.equal(await expireIfDue(app.db, jobs[0].data, minutesFromNow(11)), 'expired')
  t.equal(await stockOf(app, pie.id), 2, 'released at the app\'s deadline')
  t.same((await eventsOf(app, merchant.businessId, 'payment.expired')).map((e) => e.data.orderId), [soon.order.id], 'payment.expired for the app')
})

t.test('issue: one guest cash order cannot take a product\'s whole stock (MAX_LINE_QUANTITY)', async (t) => {
  const app = await build(t)
  const merchant = await registerUser(app, 'MERCHANT')
  const slug = await businessSlug(app, merchant)
  const flour = await createProduct(app, merchant, { name: 'Flour', price: 200, stock: 100 })
  const place = (body: Record<string, unknown>) => app.storefront.inject({ method: 'POST', url: `/store/${slug}/api/orders`, payload: body })
  const eventsBefore = (await eventsOf(app, merchant.businessId)).length

  const line = (quantity: number) => ({ productId: flour.id, quantity })
  const tooMany = [[line(100)], [line(21)], [line(20), line(1)]]
  for (const items of tooMany) {
    const refused = await place({ ...cashOrder(flour.id, 1), items })
    t.equal(refused.statusCode, 400, JSON.stringify(items))
    const asked = items.reduce((n, i) => n + i.quantity, 0)
    t.match(refused.json(), { statusCode: 400, error: 'Bad Request', message: `At most 20 of one product per order (${asked} asked for product ${flour.id})`, productId: flour.id, maxLineQuantity: 20 })
  }
  const quote = await app.storefront.inject({ method: 'POST', url: `/store/${slug}/api/checkout/quote`, payload: { items: [{ productId: flour.id, quantity: 21 }], deliveryMethod: 'PICKUP' } })
  t.equal(quote.statusCode, 400, 'the quote says so before checkout')
  t.equal(await stockOf(app, flour.id), 100, 'nothing taken')
  t.equal((await eventsOf(app, merchant.businessId)).length, eventsBefore, 'nothing written')

  t.equal((await place(cashOrder(flour.id, 20))).statusCode, 201, 'a full line is fine')
  t.equal(await stockOf(app, flour.id), 80, 'and takes only its line')
})

t.test('MAX_LINE_QUANTITY is configurable', async (t) => {
  const app = await build(t, { env: { MAX_LINE_QUANTITY: '3' } })
  const merchant = await registerUser(app, 'MERCHANT')
  const slug = await businessSlug(app, merchant)
  const egg = await createProduct(app, merchant, { name: 'Egg', price: 50, stock: 50 })
  const place = (quantity: number) => app.storefront.inject({ method: 'POST', url: `/store/${slug}/api/orders`, payload: cashOrder(egg.id, quantity) })
  t.equal((await place(4)).statusCode, 400)
  t.equal((await place(3)).statusCode, 201)
})

t.test('bad order bodies are a 400 in the error format, never a 500, and write nothing', async (t) => {
  const app = await build(t)
  const merchant = await registerUser(app, 'MERCHANT')
  const slug = await businessSlug(app, merchant)
  const jam = await createProduct(app, merchant, { name: 'Jam', price: 400, stock: 10 })
  const good = cashOrder(jam.id, 1)
  const cases: unknown[] = [
    null, [], 'x', {}, { ...good, items: [] }, { ...good, items: [{ productId: jam.id, quantity: 0 }] }, { ...good, items: [{ productId: jam.id, quantity: -1 }] },
    { ...good, items: [{ productId: jam.id, quantity: 1.5 }] }, { ...good, items: [{ productId: jam.id, quantity: '2' }] }, { ...good, items: [{ productId: jam.id, quantity: 1e308 }] },
    { ...good, customer: { name: '   ' } }, { ...good, customer: {} }, { ...good, deliveryMethod: 'DELIVERY' }, { ...good, deliveryMethod: 'DELIVERY', address: '  ' },
    { ...good, paymentMethod: '' }, { ...good, extra: 1 }
  ]
  for (const payload of cases) {
    const response = await app.storefront.inject({ method: 'POST', url: `/store/${slug}/api/orders`, headers: { 'content-type': 'application/json' }, payload: JSON.stringify(payload) })
    t.equal(response.statusCode, 400, JSON.stringify(payload))
    t.match(response.json(), { statusCode: 400, error: 'Bad Request', message: String })
  }
  t.equal(await stockOf(app, jam.id), 10)
  t.same(await app.db.select().from(orders), [], 'no order written')
})

t.test('the storefront order route is limited per client address', async (t) => {
  const app = await build(t, { env: { STOREFRONT_RATE_LIMIT_PER_MINUTE: '2' } })
  const merchant = await registerUser(app, 'MERCHANT')
  const slug = await businessSlug(app, merchant)
  const tea = await createProduct(app, merchant, { name: 'Tea', price: 300, stock: 50 })
  const place = (remoteAddress: string) => app.storefront.inject({ method: 'POST', url: `/store/${slug}/api/orders`, remoteAddress, payload: cashOrder(tea.id, 1) })
  t.equal((await place('203.0.113.20')).statusCode, 201)
  t.equal((await place('203.0.113.20')).statusCode, 201)
  const refused = await place('203.0.113.20')
  t.equal(refused.statusCode, 429)
  t.match(refused.json(), { statusCode: 429, error: 'Too Many Requests' })
  t.equal(await stockOf(app, tea.id), 48, 'the refused order took nothing')
  t.equal((await place('198.51.100.20')).statusCode, 201, 'another address has its own budget')
})
