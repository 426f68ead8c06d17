import t from 'tap'
import { and, eq, sql } from 'drizzle-orm'
import { hookCalls, orders, outboxEvents } from '../../../server/db/schema/index.ts'
import { build, registerUser, REVIEWER_ENV } from '../../helper.ts'
import { startAppServer, installHookApp, shop, cart, customer, type Reply } from './fixtures.ts'
import { CLOSED_VALIDATION_REASON } from '../../../plugins/hooks/checkout.ts'

const TIMEOUT = 300
const FAILURES: Record<string, Reply> = {
  timeout: { delayMs: TIMEOUT + 700, json: {} },
  'HTTP 500': { status: 500, json: { error: 'boom' } },
  'a malformed body': { text: '{"fee": "lots"' }
}
const WRONG_SHAPE: Record<string, unknown> = {
  '/rates': { fee: -5 },
  '/discounts': { discount: 'ten' },
  '/methods': { methods: [{ name: 'no id' }] },
  '/validate': { valid: 'yes' }
}

t.test('each failure mode per hook point gives the documented outcome, in time', async (t) => {
  const app = await build(t, { env: REVIEWER_ENV })
  const developer = await registerUser(app, 'DEVELOPER')
  const { merchant, slug, pizza, soda } = await shop(app)
  let mode: Reply | null = null
  const failing = (ok: Reply) => () => mode ?? ok
  const server = await startAppServer(t, {
    '/base/rates': failing({ json: { fee: 999 } }),
    '/base/discounts': failing({ json: { discount: 100, reason: 'x' } }),
    '/base/methods': failing({ json: { methods: [{ id: 'm', name: 'M' }] } }),
    '/base/validate': failing({ json: { valid: true } })
  })
  await installHookApp(app, developer, merchant, server.url, [
    { hookPoint: 'checkout.shipping_rates', url: '/rates', timeout: TIMEOUT },
    { hookPoint: 'order.calculate_discounts', url: '/discounts', timeout: TIMEOUT },
    { hookPoint: 'checkout.payment_methods', url: '/methods', timeout: TIMEOUT },
    { hookPoint: 'order.validate', url: '/validate', timeout: TIMEOUT }
  ], ['write_shipping', 'write_discounts', 'write_payments', 'read_orders'])

  const healthy = (await app.inject({ method: 'POST', url: `/store/${slug}/api/checkout/quote`, payload: cart(pizza.id, soda.id) })).json()
  t.match(healthy, { deliveryFee: 999, appDiscount: 100 })
  t.equal(healthy.paymentMethods.length, 3)

  const cases = [...Object.entries(FAILURES), ...Object.keys(WRONG_SHAPE).map((path) => [`a wrong shape from ${path}`, null] as const)]
  for (const [name, reply] of cases) {
    mode = reply ?? { json: WRONG_SHAPE[name.split(' ').at(-1) as string] }
    if (reply === null) {
      // only the named path answers wrongly; the others answer well
      const path = name.split(' ').at(-1) as string
      mode = null
      server.handlers[`/base${path}`] = () => ({ json: WRONG_SHAPE[path] })
    }
    const started = Date.now()
    const quote = await app.inject({ method: 'POST', url: `/store/${slug}/api/checkout/quote`, payload: cart(pizza.id, soda.id) })
    const took = Date.now() - started
    t.equal(quote.statusCode, 200, `${name}: the checkout still answers`)
    const body = quote.json()
    if (reply !== null || name.endsWith('/rates')) t.equal(body.deliveryFee, 300, `${name}: shipping keeps the fee so far`)
    if (reply !== null || name.endsWith('/discounts')) t.equal(body.appDiscount, 0, `${name}: discounts add nothing`)
    if (reply !== null || name.endsWith('/methods')) t.same(body.paymentMethods.map((m: { id: string }) => m.id), ['CASH', 'CARD'], `${name}: the app's methods are dropped`)
    if (reply !== null) t.ok(took < 3 * TIMEOUT + 1000, `${name}: answered in ${took} ms (three hooks, ${TIMEOUT} ms each, + 1 s)`)

    const placed = await app.inject({ method: 'POST', url: `/store/${slug}/api/orders`, payload: { ...cart(pizza.id, soda.id), customer, paymentMethod: 'CASH' } })
    t.equal(placed.statusCode, 201, `${name}: order.validate fails open`)
    if (reply === null) {
      const path = name.split(' ').at(-1) as string
      const ok: Record<string, Reply> = { '/rates': { json: { fee: 999 } }, '/discounts': { json: { discount: 100 } }, '/methods': { json: { methods: [{ id: 'm', name: 'M' }] } }, '/validate': { json: { valid: true } } }
      server.handlers[`/base${path}`] = () => ok[path]
    }
  }
  mode = null
  await app.hooks.flush()
  const failures = await app.db.select().from(hookCalls).where(and(eq(hookCalls.businessId, merchant.businessId), eq(hookCalls.success, false)))
  t.ok(failures.some((row) => row.error === `no answer within ${TIMEOUT} ms`), 'timeouts are logged')
  t.ok(failures.some((row) => row.statusCode === 500 && row.error === 'answered HTTP 500'), '500s are logged')
  t.ok(failures.some((row) => row.error === 'answer is not JSON'), 'malformed bodies are logged')
  t.ok(failures.some((row) => row.error?.startsWith('answer does not match order.validate')), 'wrong shapes are logged')
})

t.test('order.validate: a refusal is a 422 with the reason, and nothing is written', async (t) => {
  const app = await build(t, { env: REVIEWER_ENV })
  const developer = await registerUser(app, 'DEVELOPER')
  const { merchant, slug, pizza, soda } = await shop(app)
  const server = await startAppServer(t, { '/base/validate': ({ body }) => ({ json: body.data.subtotal > 1000 ? { valid: false, reason: 'We only deliver orders up to 10.00' } : { valid: true } }) })
  await installHookApp(app, developer, merchant, server.url, [{ hookPoint: 'order.validate', url: '/validate' }], ['read_orders'])
  const countOrders = async () => (await app.db.select({ n: sql<number>`count(*)::int` }).from(orders).where(eq(orders.businessId, merchant.businessId)))[0].n
  const countEvents = async () => (await app.db.select({ n: sql<number>`count(*)::int` }).from(outboxEvents).where(and(eq(outboxEvents.businessId, merchant.businessId), eq(outboxEvents.event, 'order.created'))))[0].n

  const refused = await app.inject({ method: 'POST', url: `/store/${slug}/api/orders`, payload: { ...cart(pizza.id, soda.id), customer, paymentMethod: 'CARD' } })
  t.equal(refused.statusCode, 422)
  t.match(refused.json(), { statusCode: 422, error: 'Unprocessable Entity', message: 'We only deliver orders up to 10.00', reason: 'We only deliver orders up to 10.00' })
  t.equal(await countOrders(), 0, 'no order')
  t.equal(await countEvents(), 0, 'no event')
  const small = await app.inject({ method: 'POST', url: `/store/${slug}/api/orders`, payload: { items: [{ productId: soda.id, quantity: 1 }], deliveryMethod: 'PICKUP', customer, paymentMethod: 'CARD' } })
  t.equal(small.statusCode, 201)
  t.equal(await countEvents(), 1)
})

t.test('order.validate with failurePolicy closed: a validator that times out blocks the order', async (t) => {
  const app = await build(t, { env: REVIEWER_ENV })
  const developer = await registerUser(app, 'DEVELOPER')
  const { merchant, slug, pizza, soda } = await shop(app)
  const server = await startAppServer(t, { '/base/validate': () => ({ delayMs: 800, json: { valid: true } }) })
  await installHookApp(app, developer, merchant, server.url, [{ hookPoint: 'order.validate', url: '/validate', timeout: 200, failurePolicy: 'closed' }], ['read_orders'])
  const started = Date.now()
  const response = await app.inject({ method: 'POST', url: `/store/${slug}/api/orders`, payload: { ...cart(pizza.id, soda.id), customer, paymentMethod: 'CASH' } })
  t.equal(response.statusCode, 422)
  t.equal(response.json().message, CLOSED_VALIDATION_REASON)
  t.ok(Date.now() - started < 1200, 'within the hook timeout + 1 s')
  t.equal((await app.db.select().from(orders).where(eq(orders.businessId, merchant.businessId))).length, 0)
})
