import t from 'tap'
import { createProduct, deleteProduct, updateProduct } from '../../../plugins/commerce/products-service.ts'
import { buildApp } from '../../../server/app.ts'
import { build, testConfig, SERVER_URL, dropListenConnections, until, portsOf } from '../../helper.ts'
import { CATALOG_CHANNEL } from '../../../plugins/commerce/catalog-cache.ts'
import { NO_RATE_LIMIT, call, installApp, type Installed } from './fixtures.ts'
import type { App } from '../../../server/app.ts'
import { TestClock } from '../../clock.ts'
import { countStatements } from '../../../bench/statements.ts'

// before any database opens: it wraps the drivers
const statements = countStatements()

interface Product { id: string, name: string, price: number, stock: number }

const list = async (app: App, installed: Installed): Promise<{ data: Product[], total: number }> =>
  (await call(app, installed, 'GET', '/app-api/products?limit=100')).json()
const byName = async (app: App, installed: Installed, name: string) => (await list(app, installed)).data.find((p) => p.name === name) as Product

/**
 * Every write to the catalogue must show in the very next App API read, although the reads are
 * served from the catalogue cache: each case warms the cache, writes, and reads at once (no waiting).
 */
t.test('App API product reads come from the cache and are never stale after a write', async (t) => {
  const app = await build(t, NO_RATE_LIMIT)
  const installed = await installApp(app, ['read_products', 'read_orders', 'write_orders', 'read_business'])
  const pizza = await byName(app, installed, 'Margherita Pizza')

  t.test('a repeated read is a hit, with the same body and headers', async (t) => {
    const first = await call(app, installed, 'GET', `/app-api/products/${pizza.id}`)
    const before = portsOf(app).commerce.catalogCache.stats()
    const second = await call(app, installed, 'GET', `/app-api/products/${pizza.id}`)
    t.equal(portsOf(app).commerce.catalogCache.stats().hits, before.hits + 1, 'answered from the cache')
    t.equal(second.body, first.body)
    t.equal(second.headers['content-type'], 'application/json; charset=utf-8')
    t.ok(second.headers['x-ratelimit-remaining'] !== undefined, 'the rate limit still counts cached reads')
    const bySlug = await call(app, installed, 'GET', `/app-api/products/slug/${(first.json() as { slug: string }).slug}`)
    t.same(bySlug.json(), first.json())
    t.equal((await call(app, installed, 'GET', '/app-api/products/prod_missing')).statusCode, 404)
    t.equal((await call(app, installed, 'GET', '/app-api/products/prod_missing')).statusCode, 404, 'a 404 is not cached as a product')
  })

  t.test('product update, create and delete', async (t) => {
    await list(app, installed)
    await updateProduct(app.db, installed.businessId, pizza.id, { price: 1234 })
    t.equal((await byName(app, installed, 'Margherita Pizza')).price, 1234, 'update seen in the list')
    t.equal((await call(app, installed, 'GET', `/app-api/products/${pizza.id}`)).json().price, 1234, 'and by id')
    const created = await createProduct(app.db, installed.businessId, { name: 'Fresh Bread', price: 300, stock: 4 })
    t.ok(await byName(app, installed, 'Fresh Bread'), 'create seen')
    await deleteProduct(app.db, installed.businessId, created.id)
    t.notOk(await byName(app, installed, 'Fresh Bread'), 'delete seen')
    t.equal((await call(app, installed, 'GET', `/app-api/products/${created.id}`)).statusCode, 404)
  })

  t.test('stock taken by a guest order and by a storefront order, and put back by a cancellation', async (t) => {
    const stock = (await byName(app, installed, 'Margherita Pizza')).stock
    const order = await call(app, installed, 'POST', '/app-api/orders', {
      items: [{ productId: pizza.id, quantity: 2 }], customer: { name: 'Ana', phone: '+15550100' }, deliveryMethod: 'PICKUP', paymentMethod: 'CASH'
    })
    t.equal(order.statusCode, 201)
    t.equal((await byName(app, installed, 'Margherita Pizza')).stock, stock - 2, 'guest order')
    const { slug } = (await call(app, installed, 'GET', '/app-api/business')).json()
    const placed = await app.storefront.inject({
      method: 'POST', url: `/store/${slug}/api/orders`,
      payload: { items: [{ productId: pizza.id, quantity: 1 }], customer: { name: 'Bo', phone: '+15550101' }, deliveryMethod: 'PICKUP', paymentMethod: 'CASH' }
    })
    t.equal(placed.statusCode, 201, placed.body)
    t.equal((await byName(app, installed, 'Margherita Pizza')).stock, stock - 3, 'storefront order')
    const cancelled = await call(app, installed, 'PATCH', `/app-api/orders/${order.json().id}/status`, { status: 'CANCELLED' })
    t.equal(cancelled.statusCode, 200)
    t.equal((await byName(app, installed, 'Margherita Pizza')).stock, stock - 1, 'restocked on cancellation')
  })

  t.test('an order refused for stock changes nothing and leaves the reads right', async (t) => {
    // a product with less stock than one line may take (MAX_LINE_QUANTITY), so the refusal is for stock
    const scarce = await byName(app, installed, 'Tiramisu')
    const lemonade = await byName(app, installed, 'Lemonade')
    const refused = await call(app, installed, 'POST', '/app-api/orders', {
      items: [{ productId: lemonade.id, quantity: 1 }, { productId: scarce.id, quantity: scarce.stock + 1 }],
      customer: { name: 'Ana', phone: '+15550100' }, deliveryMethod: 'PICKUP', paymentMethod: 'CASH'
    })
    t.equal(refused.statusCode, 409)
    t.equal((await byName(app, installed, 'Lemonade')).stock, lemonade.stock, 'the rolled-back stock change is not visible')
  })
})

t.test('a change made through another instance reaches this one at once (LISTEN/NOTIFY)', async (t) => {
  const one = await build(t, NO_RATE_LIMIT)
  // instance two's clock stands still: its entries never expire by TTL here, so only the NOTIFY can refresh them
  const two = await buildApp({ config: testConfig(NO_RATE_LIMIT.env, one.config.databaseUrl), database: one.database, clock: new TestClock({ frozen: true }) })
  t.teardown(() => two.close())
  await two.ready()
  const installed = await installApp(one, ['read_products'])
  const pizza = await byName(two, installed, 'Margherita Pizza')
  await byName(two, installed, 'Margherita Pizza')
  t.ok(portsOf(two).commerce.catalogCache.stats().hits > 0, 'instance two serves the list from its cache')

  await updateProduct(one.db, installed.businessId, pizza.id, { price: 4321 })
  const started = performance.now()
  const price = await until(async () => (await byName(two, installed, 'Margherita Pizza')).price, (seen) => seen === 4321)
  t.equal(price, 4321, `instance two shows the new price after ${Math.round(performance.now() - started)} ms`)
})

t.test('APP_API_CACHE_MB=0 turns the cache off', async (t) => {
  const app = await build(t, { env: { ...NO_RATE_LIMIT.env, APP_API_CACHE_MB: '0' } })
  const installed = await installApp(app, ['read_products'])
  await list(app, installed)
  await list(app, installed)
  t.match(portsOf(app).commerce.catalogCache.stats(), { enabled: false, entries: 0, hits: 0 })
})

t.test('while the LISTEN connection is down the cache is off', { skip: SERVER_URL === null ? 'needs DATABASE_URL' : false }, async (t) => {
  const app = await build(t, NO_RATE_LIMIT)
  const installed = await installApp(app, ['read_products'])
  await list(app, installed)
  t.ok(portsOf(app).commerce.catalogCache.stats().entries > 0)
  await dropListenConnections(app.database, app.config.databaseUrl as string, CATALOG_CHANNEL)
  const stats = async () => portsOf(app).commerce.catalogCache.stats()
  t.match(await until(stats, ({ enabled }) => !enabled), { enabled: false, entries: 0 }, 'off and emptied when the connection drops')
  t.equal((await until(stats, ({ enabled }) => enabled)).enabled, true, 'on again once listening again')
  await list(app, installed)
  t.ok(portsOf(app).commerce.catalogCache.stats().entries > 0, 'and caching')
})

t.test('a product read from the cache sends no statement: the token, the installation, the rate limit and the counters are answered in memory', async (t) => {
  const app = await build(t)
  const installed = await installApp(app, ['read_products'])
  const pizza = await byName(app, installed, 'Margherita Pizza')
  await call(app, installed, 'GET', `/app-api/products/${pizza.id}`)
  statements.take()
  for (let i = 0; i < 5; i++) t.equal((await call(app, installed, 'GET', `/app-api/products/${pizza.id}`)).statusCode, 200)
  t.same(statements.take().map((s) => s.text), [], 'nothing asked of the database')
})
