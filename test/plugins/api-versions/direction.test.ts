import t from 'tap'
import { eq } from 'drizzle-orm'
import {
  CURRENT_SCHEMAS, DOMAIN_API_VERSION, LATEST_API_VERSION, downgrade, present, showsAsRecorded, upgrade
} from '../../../sdk/src/contract/api-versions.ts'
import { emitEvent } from '../../../server/events.ts'
import { updateProduct } from '../../../plugins/commerce/products-service.ts'
import { installations } from '../../../server/db/schema/index.ts'
import { build, registerUser, REVIEWER_ENV, until, portsOf } from '../../helper.ts'
import { NO_RATE_LIMIT, call, firstOf, installApp } from '../app-api/fixtures.ts'
import { cart, customer, installHookApp, shop, startAppServer } from '../checkout-hooks/fixtures.ts'

const usd = (amount: number) => ({ amount, currency: 'USD' })

/**
 * Stripe's direction (issue #31): the App API's handlers, the webhook deliveries and the hook runner
 * speak the newest version; the registry's transforms downgrade what leaves for an older pin and
 * upgrade what arrives from one. The platform's own records (the merchant API, the outbox) stay
 * unversioned and are presented in the newest shape.
 */
t.test('the registry: down goes newest → older, up older → newest, present shows a record in the newest shape', async (t) => {
  t.equal(LATEST_API_VERSION, '2026-12')
  t.equal(DOMAIN_API_VERSION, '2026-11')
  const newest = { id: 'ord_1', currency: 'USD', subtotal: usd(1300), deliveryFee: usd(500), discount: usd(0), promoDiscount: usd(0), amount: usd(1800), items: [{ productId: 'p', quantity: 1, unitPrice: usd(1300), total: usd(1300) }] }
  const older = { id: 'ord_1', currency: 'USD', subtotal: 1300, deliveryFee: 500, discount: 0, promoDiscount: 0, amount: 1800, items: [{ productId: 'p', quantity: 1, unitPrice: 1300, total: 1300 }] }
  t.same(downgrade('Order', newest, '2026-11'), older, 'an answer for a 2026-11 pin: the newest order downgraded')
  t.same(downgrade('Order', newest, '2026-12'), newest, 'the newest version: untouched')
  t.same(present('Order', older, { currency: 'USD' }), newest, 'the unversioned record (the merchant\'s integers) in the newest shape')
  t.same(downgrade('Product', { price: usd(650) }, '2026-11'), { price: 650 })
  t.same(downgrade('event:order.created', { orderId: 'ord_1', amount: usd(1800), deliveryFee: usd(500) }, '2026-11'), { orderId: 'ord_1', amount: 1800, deliveryFee: 500 })
  t.same(downgrade('hook:checkout.create_payment', { orderId: 'ord_1', amount: usd(1800), currency: 'USD' }, '2026-11'), { orderId: 'ord_1', amount: '1800', currency: 'USD' },
    'create_payment\'s amount goes back to the string 2026-11 sent')
  t.same(downgrade('hook:checkout.shipping_rates', { subtotal: usd(2700), builtInFee: usd(300) }, '2026-11'), { subtotal: 2700, builtInFee: 300 })
  t.same(upgrade('answer:checkout.shipping_rates', { fee: 400 }, '2026-11', { currency: 'EUR' }), { fee: { amount: 400, currency: 'EUR' } },
    'a 2026-11 hook answer upgraded to the newest shape, in the business\'s currency')
  t.same(upgrade('answer:order.calculate_discounts', { discount: usd(200) }, '2026-12', { currency: 'USD' }), { discount: usd(200) }, 'a newest answer: untouched')
  t.equal((CURRENT_SCHEMAS.Order as { title?: string }).title, 'Order_2026-12', 'the App API answers with the newest version\'s schemas')
  t.ok(showsAsRecorded('event:order.created', '2026-11'), 'a 2026-11 registration gets a stored order event as it is (its bytes, no currency read)')
  t.notOk(showsAsRecorded('event:order.created', '2026-12'), 'a 2026-12 one gets it presented')
  t.ok(showsAsRecorded('event:review.created', '2026-12'), 'an event no version changes is sent as stored in every version')
})

t.test('App API handlers answer in the newest shape: the catalogue cache holds 2026-12 bytes even when only a 2026-11 app read them', async (t) => {
  const app = await build(t, NO_RATE_LIMIT)
  const installed = await installApp(app, ['read_products', 'read_business'])
  const [pinned] = await app.db.select({ apiVersion: installations.apiVersion }).from(installations).where(eq(installations.id, installed.installationId))
  t.equal(pinned.apiVersion, '2026-11', 'the tests pin new installs to 2026-11')
  const product = await firstOf(app, installed, '/app-api/products')
  const answer = await call(app, installed, 'GET', `/app-api/products/${product.id as string}`)
  t.equal(answer.headers['app-api-version'], '2026-11')
  t.type(answer.json().price, 'number', '2026-11 reads a number')
  const currency = (await call(app, installed, 'GET', '/app-api/business')).json().currency
  const cached = await portsOf(app).commerce.catalogCache.read(installed.businessId, `id:${product.id as string}`, async () => { throw new Error('not cached') })
  t.same(JSON.parse(cached).price, { amount: product.price, currency }, 'what the handler answered: the newest shape, downgraded on the way out')
  const newest = await app.inject({ method: 'GET', url: `/app-api/products/${product.id as string}`, headers: { ...installed.auth, 'app-api-version': '2026-12' } })
  t.equal(newest.body, cached, 'the newest version is sent the cached bytes untouched')

  // the 2026-11 answer is downgraded once and kept beside the newest bytes: a repeated read is one hit and sends them as kept
  const older = await portsOf(app).commerce.catalogCache.read(installed.businessId, `id:${product.id as string}@2026-11`, async () => { throw new Error('not cached') })
  t.equal(older, answer.body, 'the 2026-11 answer is kept under its own key, as it was sent')
  const before = portsOf(app).commerce.catalogCache.stats()
  const again = await call(app, installed, 'GET', `/app-api/products/${product.id as string}`)
  const after = portsOf(app).commerce.catalogCache.stats()
  t.same({ hits: after.hits - before.hits, misses: after.misses - before.misses }, { hits: 1, misses: 0 }, 'a repeated 2026-11 read: one hit, nothing loaded or downgraded')
  t.equal(again.body, answer.body)
  t.equal(again.headers['app-api-version'], '2026-11')

  // a change to the catalogue drops both versions' bytes
  await updateProduct(app.db, installed.businessId, product.id as string, { price: 777 })
  t.equal((await call(app, installed, 'GET', `/app-api/products/${product.id as string}`)).json().price, 777, 'a 2026-11 read right after the write')
  const newestAfter = await app.inject({ method: 'GET', url: `/app-api/products/${product.id as string}`, headers: { ...installed.auth, 'app-api-version': '2026-12' } })
  t.same(newestAfter.json().price, { amount: 777, currency }, 'and a 2026-12 one')
})

t.test('a 2026-11 answer is the 2026-12 answer downgraded, serialized with 2026-11\'s own schema: lists, one order, a created order', async (t) => {
  const app = await build(t, NO_RATE_LIMIT)
  const installed = await installApp(app, ['read_products', 'read_orders', 'write_orders'])
  const product = (await call(app, installed, 'GET', '/app-api/products?limit=100')).json().data.find((p: { name: string }) => p.name === 'Margherita Pizza')
  const created = await call(app, installed, 'POST', '/app-api/orders', {
    items: [{ productId: product.id, quantity: 2 }], customer: { name: 'Ana', phone: '+15550100' }, deliveryMethod: 'PICKUP', paymentMethod: 'CASH'
  })
  t.equal(created.statusCode, 201, created.body)
  t.type(created.json().amount, 'number', 'the 201 of a 2026-11 app: plain integers')
  t.type(created.json().items[0].unitPrice, 'number')
  const newest = { ...installed.auth, 'app-api-version': '2026-12' }
  for (const path of ['/app-api/orders', `/app-api/orders/${created.json().id as string}`, '/app-api/orders?status=PENDING']) {
    const older = await call(app, installed, 'GET', path)
    const latest = await app.inject({ method: 'GET', url: path, headers: newest })
    t.equal(older.headers['app-api-version'], '2026-11')
    t.equal(older.headers['content-type'], 'application/json; charset=utf-8')
    const body = latest.json() as { data?: unknown[] }
    const expected = Array.isArray(body.data) ? { ...body, data: body.data.map((order) => downgrade('Order', order, '2026-11')) } : downgrade('Order', body, '2026-11')
    t.same(older.json(), expected, `${path}: the newest answer, downgraded`)
    t.equal(older.body, JSON.stringify(expected), `${path}: byte for byte, fields in the schema's order`)
  }
})

t.test('an event stored before the change (unversioned, plain integers) delivers in both versions', async (t) => {
  const app = await build(t, NO_RATE_LIMIT)
  const installed = await installApp(app, ['read_orders', 'read_business'])
  const currency = (await call(app, installed, 'GET', '/app-api/business')).json().currency
  const receiver = await startAppServer(t, { '/older': () => ({ json: {} }), '/newer': () => ({ json: {} }) })
  for (const [path, apiVersion] of [['/older', '2026-11'], ['/newer', '2026-12']]) {
    const registered = await app.inject({ method: 'POST', url: '/webhooks', headers: installed.auth, payload: { url: `${receiver.url}${path}`, events: ['order.created'], apiVersion } })
    t.equal(registered.statusCode, 201)
  }
  // the row exactly as the outbox has always written it: the merchant's integers, no version
  const data = { orderId: 'ord_stored', orderNumber: 'STORED-1', status: 'PENDING', amount: 1800, deliveryFee: 500 }
  await emitEvent(app.db, { businessId: installed.businessId, event: 'order.created', data })
  const calls = await until(async () => receiver.calls.filter((c) => c.body?.data?.orderId === 'ord_stored'), (found) => found.length === 2)
  const older = calls.find((c) => c.path === '/older')
  const newer = calls.find((c) => c.path === '/newer')
  t.equal(older?.headers['app-api-version'], '2026-11')
  t.same(older?.body.data, data, '2026-11: the stored integers, as before')
  t.equal(newer?.headers['app-api-version'], '2026-12')
  t.same(newer?.body.data, { ...data, amount: { amount: 1800, currency }, deliveryFee: { amount: 500, currency } }, '2026-12: money objects in the business\'s currency')
})

t.test('a 2026-12 hook may still answer plain integers; its payload is the checkout\'s own (newest) shape', async (t) => {
  const app = await build(t, { env: { ...REVIEWER_ENV, RATE_LIMIT_PER_MINUTE: '1000000' } })
  const developer = await registerUser(app, 'DEVELOPER')
  const { merchant, slug, pizza, soda } = await shop(app)
  const server = await startAppServer(t, {
    '/base': () => ({ json: {} }),
    '/base/rates': () => ({ json: { fee: 700 } }),
    '/base/discounts': () => ({ json: { discount: 100 } })
  })
  const hooks = [{ hookPoint: 'checkout.shipping_rates', url: '/rates' }, { hookPoint: 'order.calculate_discounts', url: '/discounts' }]
  const installed = await installHookApp(app, developer, merchant, server.url, hooks, ['write_shipping', 'write_discounts'])
  const upgraded = await app.inject({ method: 'POST', url: `/developer/apps/${installed.appId}/api-versions/upgrade`, headers: developer.auth, payload: { version: '2026-12', target: 'all' } })
  t.match(upgraded.json(), { moved: 1 })
  const placed = await app.storefront.inject({ method: 'POST', url: `/store/${slug}/api/orders`, payload: { ...cart(pizza.id, soda.id), customer, paymentMethod: 'CASH' } })
  t.equal(placed.statusCode, 201)
  const order = placed.json().order
  t.equal(order.deliveryFee, 700, 'the integer fee was read')
  t.equal(order.discount, 100, 'the integer discount was read')
  const rates = server.calls.find((c) => c.path === '/base/rates')
  t.equal(rates?.headers['app-api-version'], '2026-12')
  t.same(rates?.body.data.subtotal, { amount: order.subtotal, currency: order.currency }, 'the payload in the newest shape, untouched')
  t.match(server.calls.find((c) => c.path === '/base/discounts')?.body.data, { deliveryFee: { amount: 700, currency: order.currency } })
})
