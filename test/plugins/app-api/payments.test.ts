import t from 'tap'
import { createOrder } from '../../../plugins/commerce/checkout-service.ts'
import { attachPaymentSession } from '../../../plugins/commerce/payments-service.ts'
import { PAYMENT_EXPIRY_JOB, expireIfDue } from '../../../plugins/commerce/payment-expiry.ts'
import type { App } from '../../../server/app.ts'
import { build, releaseDelayedJobs, until, portsOf } from '../../helper.ts'
import { TestClock } from '../../clock.ts'
import { NO_RATE_LIMIT, call, eventsOf, installApp, type Installed } from './fixtures.ts'

/** App payment method ids are namespaced by the installation that offers them (checkout.payment_methods). */
const methodOf = (installed: Installed) => `${installed.installationId}:wallet`

/** A guest order paid with an app-provided method (the pipeline offers it, as checkout.payment_methods will). */
async function appPaidOrder (app: App, installed: Installed, productId: string) {
  return await createOrder(app.db, installed.businessId,
    { items: [{ productId, quantity: 1 }], customer: { name: 'Ana' }, deliveryMethod: 'PICKUP', paymentMethod: methodOf(installed) },
    { paymentMethods: async () => [methodOf(installed)] })
}

async function expiryJobs (app: App, orderId: string) {
  const { rows } = await app.database.executeSql('select state from pgboss.job where name = $1 and data->>\'orderId\' = $2', [PAYMENT_EXPIRY_JOB, orderId])
  return rows.map((row) => row.state as string)
}

t.test('App API payments', async (t) => {
  const clock = new TestClock()
  const app = await build(t, { ...NO_RATE_LIMIT, clock })
  const installed = await installApp(app, ['read_products', 'read_orders', 'write_payments'])
  const other = await installApp(app, ['read_products', 'write_payments'])
  const product = (await call(app, installed, 'GET', '/app-api/products?category=Drinks')).json().data[0]
  const pay = (orderId: string, status: unknown, as = installed) => call(app, as, 'POST', `/app-api/orders/${orderId}/payment`, { status })

  t.test('POST /app-api/orders/:id/payment COMPLETED completes the payment and writes payment.completed once', async (t) => {
    const order = await appPaidOrder(app, installed, product.id)
    const response = await pay(order.id, 'COMPLETED')
    t.equal(response.statusCode, 200)
    t.match(response.json(), { id: order.id, paymentStatus: 'COMPLETED', paymentMethod: methodOf(installed), status: 'PENDING' })
    const events = (await eventsOf(app, installed.businessId, 'payment.completed')).filter((e) => e.data.orderId === order.id)
    t.equal(events.length, 1)
    t.same(events[0].data, { orderId: order.id, invoiceId: null, amount: order.amount, currency: 'USD', paymentMethodId: methodOf(installed) })
    const again = await pay(order.id, 'FAILED')
    t.equal(again.statusCode, 409, 'settled once')
    t.same(again.json(), { statusCode: 409, error: 'Conflict', message: 'The payment is already COMPLETED', code: 'payment_settled' })
  })

  t.test('POST /app-api/orders/:id/payment: only the app that provides the method reports its outcome', async (t) => {
    const rival = await installApp(app, ['read_orders', 'write_payments'], installed.developer)
    t.equal(rival.businessId, installed.businessId, 'another app on the same business')
    const order = await appPaidOrder(app, installed, product.id)
    const response = await pay(order.id, 'COMPLETED', rival)
    t.equal(response.statusCode, 403)
    t.match(response.json(), { statusCode: 403, error: 'Forbidden', message: /another app/ })
    t.equal((await call(app, installed, 'GET', `/app-api/orders/${order.id}`)).json().paymentStatus, 'PENDING', 'nothing changed')
  })

  t.test('POST /app-api/orders/:id/payment FAILED fails it without an event', async (t) => {
    const order = await appPaidOrder(app, installed, product.id)
    const before = (await eventsOf(app, installed.businessId)).length
    const response = await pay(order.id, 'FAILED')
    t.equal(response.statusCode, 200)
    t.equal(response.json().paymentStatus, 'FAILED')
    t.equal((await eventsOf(app, installed.businessId)).length, before, 'the catalog has no failure event')
  })

  t.test('POST /app-api/orders/:id/payment refuses built-in methods (409), other statuses (400) and other businesses (404)', async (t) => {
    const orders = (await call(app, installed, 'GET', '/app-api/orders?limit=50')).json().data as Array<{ id: string, paymentMethod: string }>
    const cash = orders.find((o) => o.paymentMethod === 'CASH' || o.paymentMethod === 'CARD')!
    const builtIn = await pay(cash.id, 'COMPLETED')
    t.equal(builtIn.statusCode, 409)
    t.equal(builtIn.json().message, 'This order is not paid with an app payment method')
    const order = await appPaidOrder(app, installed, product.id)
    for (const status of ['EXPIRED', 'PENDING', 'completed', 1, null]) t.equal((await pay(order.id, status)).statusCode, 400, String(status))
    const missing = await pay(order.id, 'COMPLETED', other)
    t.equal(missing.statusCode, 404)
    t.same(missing.json(), { statusCode: 404, error: 'Not Found', message: 'Order not found', code: 'order_not_found' })
    t.equal((await call(app, installed, 'GET', `/app-api/orders/${order.id}`)).json().paymentStatus, 'PENDING', 'untouched')
  })

  t.test('an unpaid app payment expires at paymentExpiresAt, writing payment.expired once', async (t) => {
    const order = await appPaidOrder(app, installed, product.id)
    await app.db.transaction(async (tx) => {
      const expiresAt = new Date(clock.nowMs() + 15 * 60_000)
      await attachPaymentSession(tx, installed.businessId, order.id, { invoiceId: 'inv_exp', expiresAt })
      await portsOf(app).commerce.schedulePaymentExpiry(tx, { businessId: installed.businessId, orderId: order.id, expiresAt })
    })
    t.equal((await call(app, installed, 'GET', `/app-api/orders/${order.id}`)).json().paymentStatus, 'PENDING', 'not before its time')
    t.same(await expiryJobs(app, order.id), ['created'], 'its job waits for the deadline')
    clock.advance(15 * 60_000)
    t.equal(await releaseDelayedJobs(app, PAYMENT_EXPIRY_JOB), 1, 'the deadline passed: the job is due')
    const expired = await until(async () => (await eventsOf(app, installed.businessId, 'payment.expired')).filter((e) => e.data.orderId === order.id),
      (events) => events.length > 0)
    t.equal(expired.length, 1)
    t.same(expired[0].data, { orderId: order.id, invoiceId: 'inv_exp', amount: order.amount, currency: 'USD', paymentMethodId: methodOf(installed) })
    t.equal((await call(app, installed, 'GET', `/app-api/orders/${order.id}`)).json().paymentStatus, 'EXPIRED')
    t.equal((await pay(order.id, 'COMPLETED')).statusCode, 409, 'an expired payment cannot complete')
  })

  t.test('a payment completed before its deadline is left alone by the expiry job', async (t) => {
    const order = await appPaidOrder(app, installed, product.id)
    await app.db.transaction(async (tx) => {
      const expiresAt = new Date(clock.nowMs() + 15 * 60_000)
      await attachPaymentSession(tx, installed.businessId, order.id, { expiresAt })
      await portsOf(app).commerce.schedulePaymentExpiry(tx, { businessId: installed.businessId, orderId: order.id, expiresAt })
    })
    t.equal((await pay(order.id, 'COMPLETED')).statusCode, 200)
    clock.advance(15 * 60_000)
    await releaseDelayedJobs(app, PAYMENT_EXPIRY_JOB)
    await until(async () => await expiryJobs(app, order.id), (states) => states.includes('completed'))
    t.equal((await call(app, installed, 'GET', `/app-api/orders/${order.id}`)).json().paymentStatus, 'COMPLETED')
    t.same((await eventsOf(app, installed.businessId, 'payment.expired')).filter((e) => e.data.orderId === order.id), [])
  })

  t.test('the expiry is scheduled with the session: a rolled-back transaction leaves no job', async (t) => {
    const order = await appPaidOrder(app, installed, product.id)
    await t.rejects(app.db.transaction(async (tx) => {
      const expiresAt = new Date(clock.nowMs() + 500)
      await attachPaymentSession(tx, installed.businessId, order.id, { expiresAt })
      await portsOf(app).commerce.schedulePaymentExpiry(tx, { businessId: installed.businessId, orderId: order.id, expiresAt })
      throw new Error('the checkout failed after the session')
    }), { message: 'the checkout failed after the session' })
    t.same(await expiryJobs(app, order.id), [])
  })

  t.test('expireIfDue skips a deadline moved later, a settled payment and a deleted order', async (t) => {
    const order = await appPaidOrder(app, installed, product.id)
    const now = clock.nowMs()
    await attachPaymentSession(app.db, installed.businessId, order.id, { expiresAt: new Date(now + 60_000) })
    const job = { businessId: installed.businessId, orderId: order.id, expiresAt: new Date(now).toISOString() }
    t.equal(await expireIfDue(app.db, job, new Date(now)), 'rescheduled')
    t.equal(await expireIfDue(app.db, job, new Date(now + 61_000)), 'expired')
    t.equal(await expireIfDue(app.db, job, new Date(now + 61_000)), 'settled')
    t.equal(await expireIfDue(app.db, { ...job, businessId: other.businessId }, new Date(now)), 'gone', "another business's id finds nothing")
  })
})
