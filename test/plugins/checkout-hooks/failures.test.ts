import t from 'tap'
import type * as Tap from 'tap'
import { and, eq, sql } from 'drizzle-orm'
import { hookCalls, orders, outboxEvents } from '../../../server/db/schema/index.ts'
import { build, registerUser, REVIEWER_ENV, portsOf } from '../../helper.ts'
import { startAppServer, installHookApp, shop, cart, customer, type Reply } from './fixtures.ts'
import { CLOSED_VALIDATION_REASON } from '../../../plugins/checkout-hooks/checkout.ts'

/**
 * Each hook's own timeout here: long enough that a working app on a loaded machine answers inside it
 * (at 300 ms, a healthy discount hook was cut at a load of 15 on 2 cores and the baseline quote lost its
 * discount), short enough that the hanging app's scenario ends in seconds.
 */
const TIMEOUT = 2000
/** How late a hanging app answers: far past any timeout, so an answer before it proves the timeout cut the call, however loaded the machine. */
const HANG_MS = 60_000
const FAILURES: Record<string, Reply> = {
  timeout: { delayMs: HANG_MS, json: {} },
  'HTTP 500': { status: 500, json: { error: 'boom' } },
  'a malformed body': { text: '{"fee": "lots"' }
}
const WRONG_SHAPE: Record<string, unknown> = {
  '/rates': { fee: -5 },
  '/discounts': { discount: 'ten' },
  '/methods': { methods: [{ name: 'no id' }] },
  '/validate': { valid: 'yes' }
}

/** What each hook point answers when it works. */
const HEALTHY: Record<string, Reply> = {
  '/rates': { json: { fee: 999 } },
  '/discounts': { json: { discount: 100, reason: 'x' } },
  '/methods': { json: { methods: [{ id: 'm', name: 'M' }] } },
  '/validate': { json: { valid: true } }
}

t.test('each failure mode per hook point gives the documented outcome, in time', async (t) => {
  const app = await build(t, { env: REVIEWER_ENV })
  const developer = await registerUser(app, 'DEVELOPER')
  const { merchant, slug, pizza, soda } = await shop(app)
  const server = await startAppServer(t, {})
  const answer = (path: string, reply: Reply) => { server.handlers[`/base${path}`] = () => reply }
  const answerWell = () => { for (const [path, reply] of Object.entries(HEALTHY)) answer(path, reply) }
  answerWell()
  await installHookApp(app, developer, merchant, server.url, [
    { hookPoint: 'checkout.shipping_rates', url: '/rates', timeout: TIMEOUT },
    { hookPoint: 'order.calculate_discounts', url: '/discounts', timeout: TIMEOUT },
    { hookPoint: 'checkout.payment_methods', url: '/methods', timeout: TIMEOUT },
    { hookPoint: 'order.validate', url: '/validate', timeout: TIMEOUT }
  ], ['write_shipping', 'write_discounts', 'write_payments', 'read_orders'])
  const quote = async () => {
    const started = performance.now()
    const response = await app.storefront.inject({ method: 'POST', url: `/store/${slug}/api/checkout/quote`, payload: cart(pizza.id, soda.id) })
    return { response, took: Math.round(performance.now() - started) }
  }
  const placeOrder = async () => await app.storefront.inject({ method: 'POST', url: `/store/${slug}/api/orders`, payload: { ...cart(pizza.id, soda.id), customer, paymentMethod: 'CASH' } })
  const methodIds = (body: { paymentMethods: Array<{ id: string }> }) => body.paymentMethods.map((m) => m.id)

  const healthy = (await quote()).response.json()
  t.match(healthy, { deliveryFee: 999, appDiscount: 100 })
  t.match(methodIds(healthy), ['CASH', 'CARD', /^inst_\w+:m$/], "the app's method, namespaced by its installation")

  for (const [name, reply] of Object.entries(FAILURES)) {
    t.test(`every hook point fails with ${name}`, async (t) => {
      for (const path of Object.keys(HEALTHY)) answer(path, reply)
      t.teardown(answerWell)
      const { response, took } = await quote()
      t.equal(response.statusCode, 200, 'the checkout still answers')
      const body = response.json()
      t.equal(body.deliveryFee, 300, 'shipping keeps the fee so far')
      t.equal(body.appDiscount, 0, 'discounts add nothing')
      t.same(methodIds(body), ['CASH', 'CARD'], "the app's methods are dropped")
      t.ok(took < HANG_MS, `answered in ${took} ms (three hooks cut at ${TIMEOUT} ms each), not when a hanging app would have`)
      t.equal((await placeOrder()).statusCode, 201, 'order.validate fails open')
    })
  }

  // one hook point answers with a shape its schema refuses; the others answer well
  const wrongShapeOutcome: Record<string, (t: Tap.Test, body: any) => void> = {
    '/rates': (t, body) => { t.equal(body.deliveryFee, 300, 'shipping keeps the fee so far') },
    '/discounts': (t, body) => { t.equal(body.appDiscount, 0, 'discounts add nothing') },
    '/methods': (t, body) => { t.same(methodIds(body), ['CASH', 'CARD'], "the app's methods are dropped") },
    '/validate': (t, body) => { t.equal(body.deliveryFee, 999, 'the quote is untouched (order.validate runs when ordering)') }
  }
  for (const [path, wrong] of Object.entries(WRONG_SHAPE)) {
    t.test(`a wrong shape from ${path}`, async (t) => {
      answer(path, { json: wrong })
      t.teardown(answerWell)
      const { response } = await quote()
      t.equal(response.statusCode, 200, 'the checkout still answers')
      wrongShapeOutcome[path](t, response.json())
      t.equal((await placeOrder()).statusCode, 201, 'order.validate fails open')
    })
  }

  t.test('every failure is in the hook-call log', async (t) => {
    await portsOf(app).checkoutHooks.flush()
    const failures = await app.db.select().from(hookCalls).where(and(eq(hookCalls.businessId, merchant.businessId), eq(hookCalls.success, false)))
    t.ok(failures.some((row) => row.error === `no answer within ${TIMEOUT} ms`), 'timeouts are logged')
    t.ok(failures.some((row) => row.statusCode === 500 && row.error === 'answered HTTP 500'), '500s are logged')
    t.ok(failures.some((row) => row.error === 'answer is not JSON'), 'malformed bodies are logged')
    t.ok(failures.some((row) => row.error?.startsWith('answer does not match order.validate')), 'wrong shapes are logged')
  })
})

t.test('order.validate: a refusal is a 422 with the reason, and nothing is written', async (t) => {
  const app = await build(t, { env: REVIEWER_ENV })
  const developer = await registerUser(app, 'DEVELOPER')
  const { merchant, slug, pizza, soda } = await shop(app)
  const server = await startAppServer(t, { '/base/validate': ({ body }) => ({ json: body.data.subtotal > 1000 ? { valid: false, reason: 'We only deliver orders up to 10.00' } : { valid: true } }) })
  await installHookApp(app, developer, merchant, server.url, [{ hookPoint: 'order.validate', url: '/validate' }], ['read_orders'])
  const countOrders = async () => (await app.db.select({ n: sql<number>`count(*)::int` }).from(orders).where(eq(orders.businessId, merchant.businessId)))[0].n
  const countEvents = async () => (await app.db.select({ n: sql<number>`count(*)::int` }).from(outboxEvents).where(and(eq(outboxEvents.businessId, merchant.businessId), eq(outboxEvents.event, 'order.created'))))[0].n

  const refused = await app.storefront.inject({ method: 'POST', url: `/store/${slug}/api/orders`, payload: { ...cart(pizza.id, soda.id), customer, paymentMethod: 'CARD' } })
  t.equal(refused.statusCode, 422)
  t.match(refused.json(), { statusCode: 422, error: 'Unprocessable Entity', message: 'We only deliver orders up to 10.00', reason: 'We only deliver orders up to 10.00' })
  t.equal(await countOrders(), 0, 'no order')
  t.equal(await countEvents(), 0, 'no event')
  const small = await app.storefront.inject({ method: 'POST', url: `/store/${slug}/api/orders`, payload: { items: [{ productId: soda.id, quantity: 1 }], deliveryMethod: 'PICKUP', customer, paymentMethod: 'CARD' } })
  t.equal(small.statusCode, 201)
  t.equal(await countEvents(), 1)
})

t.test('order.validate with failurePolicy closed: a validator that times out blocks the order', async (t) => {
  const app = await build(t, { env: REVIEWER_ENV })
  const developer = await registerUser(app, 'DEVELOPER')
  const { merchant, slug, pizza, soda } = await shop(app)
  const server = await startAppServer(t, { '/base/validate': () => ({ delayMs: HANG_MS, json: { valid: true } }) })
  await installHookApp(app, developer, merchant, server.url, [{ hookPoint: 'order.validate', url: '/validate', timeout: 200, failurePolicy: 'closed' }], ['read_orders'])
  const started = performance.now()
  const response = await app.storefront.inject({ method: 'POST', url: `/store/${slug}/api/orders`, payload: { ...cart(pizza.id, soda.id), customer, paymentMethod: 'CASH' } })
  t.equal(response.statusCode, 422)
  t.equal(response.json().message, CLOSED_VALIDATION_REASON)
  t.ok(performance.now() - started < HANG_MS, 'cut at the hook timeout, not when the validator would have answered')
  t.equal((await app.db.select().from(orders).where(eq(orders.businessId, merchant.businessId))).length, 0)
})
