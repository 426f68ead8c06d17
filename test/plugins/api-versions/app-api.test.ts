import t from 'tap'
import { eq } from 'drizzle-orm'
import { buildApp } from '../../../server/app.ts'
import { installations } from '../../../server/db/schema/index.ts'
import { build, testConfig } from '../../helper.ts'
import { TestClock } from '../../clock.ts'
import { NO_RATE_LIMIT, call, installApp, type Installed } from '../app-api/fixtures.ts'

const MONEY = { amount: Number, currency: /^[A-Z]{3}$/ }
const ORDER_MONEY = ['subtotal', 'deliveryFee', 'discount', 'promoDiscount', 'amount'] as const

/**
 * An app installed before 2026-12 shipped stays on 2026-11 (plain numbers) after the release; the same
 * app reads 2026-12 ({ amount, currency }) by naming it in App-Api-Version; a new install of an app that
 * declares 2026-12 pins to it, one of an app that declares none to 2026-11 (DESIGN §22).
 */
t.test('API versions on the App API', async (t) => {
  // 2026-11 is current: the deployment before 2026-12 ships
  const clock = new TestClock({ startMs: Date.parse('2026-12-10T12:00:00Z') })
  const before = await build(t, { env: { ...NO_RATE_LIMIT.env, API_VERSION_CURRENT: '2026-11' }, clock })
  const old = await installApp(before, ['read_orders', 'write_orders', 'read_products', 'read_business'])
  const [pinned] = await before.db.select({ apiVersion: installations.apiVersion }).from(installations).where(eq(installations.id, old.installationId))
  t.equal(pinned.apiVersion, '2026-11', 'installed while 2026-11 was current: pinned to it')
  const oldOrders = (await call(before, old, 'GET', '/app-api/orders')).json()
  const oldProduct = (await call(before, old, 'GET', '/app-api/products')).json().data[0]
  await before.close()

  // the release: the same database, a deployment whose current version is 2026-12 (the production default)
  // (PGlite: the test's database, which outlives the first app; PostgreSQL: a new pool on the same database)
  const shared = before.config.databaseUrl === null ? { database: before.database } : {}
  const app = await buildApp({ config: testConfig({ ...NO_RATE_LIMIT.env, API_VERSION_CURRENT: '2026-12' }, before.config.databaseUrl), ...shared, clock })
  t.teardown(() => app.close())
  await app.ready()
  const get = (installed: Installed, url: string, version?: string) =>
    app.inject({ method: 'GET', url, headers: { ...installed.auth, ...(version === undefined ? {} : { 'app-api-version': version }) } })

  t.test('the old app sees exactly what it saw before the release, and each answer says 2026-11', async (t) => {
    const orders = await get(old, '/app-api/orders')
    t.equal(orders.statusCode, 200)
    t.equal(orders.headers['app-api-version'], '2026-11')
    t.same(orders.json(), oldOrders, 'orders unchanged')
    for (const order of orders.json().data) for (const field of ORDER_MONEY) t.type(order[field], 'number', `order ${field} a number`)
    const product = await get(old, `/app-api/products/${oldProduct.id as string}`)
    t.equal(product.headers['app-api-version'], '2026-11')
    t.same(product.json(), oldProduct, 'product unchanged')
    t.type(product.json().price, 'number')
    t.notOk(orders.headers.deprecation, 'no sunset announced: no Deprecation')
  })

  t.test('the same app reads 2026-12 by naming it: money as { amount, currency }', async (t) => {
    const orders = await get(old, '/app-api/orders', '2026-12')
    t.equal(orders.statusCode, 200)
    t.equal(orders.headers['app-api-version'], '2026-12')
    const [first] = orders.json().data
    const before = oldOrders.data.find((order: { id: string }) => order.id === first.id)
    for (const field of ORDER_MONEY) t.same(first[field], { amount: before[field], currency: before.currency }, `order ${field}`)
    t.same(first.items[0].unitPrice, { amount: before.items[0].unitPrice, currency: before.currency })
    t.same(first.items[0].total, { amount: before.items[0].total, currency: before.currency })
    t.equal(first.orderNumber, before.orderNumber, 'the rest as it was')
    t.equal(orders.json().total, oldOrders.total, 'the envelope as it was')

    const one = await get(old, `/app-api/orders/${first.id as string}`, '2026-12')
    t.same(one.json().amount, { amount: before.amount, currency: before.currency }, 'GET /orders/:id too')

    const business = (await get(old, '/app-api/business')).json()
    for (const url of ['/app-api/products', `/app-api/products/${oldProduct.id as string}`, `/app-api/products/slug/${oldProduct.slug as string}`]) {
      const response = await get(old, url, '2026-12')
      t.equal(response.headers['app-api-version'], '2026-12', url)
      const product = url === '/app-api/products' ? response.json().data.find((p: { id: string }) => p.id === oldProduct.id) : response.json()
      t.same(product.price, { amount: oldProduct.price, currency: business.currency }, `${url}: price in the business currency`)
    }
    // the catalogue cache keeps the newest shape: 2026-11 after 2026-12 still reads numbers (downgraded from the cached bytes)
    t.type((await get(old, `/app-api/products/${oldProduct.id as string}`)).json().price, 'number')

    const moved = await app.inject({
      method: 'PATCH', url: `/app-api/orders/${first.id as string}/status`, headers: { ...old.auth, 'app-api-version': '2026-12' }, payload: { status: 'CANCELLED' }
    })
    if (moved.statusCode === 200) t.match(moved.json().subtotal, MONEY, 'a write answers in the named version')
    else t.equal(moved.statusCode, 409, 'a final order cannot move (still versioned)')
    t.equal(moved.headers['app-api-version'], '2026-12')
  })

  t.test('a new install pins to the version its app declares and may still read 2026-11; none declared: 2026-11', async (t) => {
    const undeclared = await installApp(app, ['read_orders', 'read_products'])
    t.equal((await get(undeclared, '/app-api/orders')).headers['app-api-version'], '2026-11', 'API_VERSION_CURRENT is no default')
    const fresh = await installApp(app, ['read_orders', 'read_products'], undefined, { apiVersion: '2026-12' })
    const orders = await get(fresh, '/app-api/orders')
    t.equal(orders.headers['app-api-version'], '2026-12')
    t.match(orders.json().data[0].amount, MONEY)
    const older = await get(fresh, '/app-api/orders', '2026-11')
    t.equal(older.headers['app-api-version'], '2026-11')
    t.type(older.json().data[0].amount, 'number')
  })

  t.test('an unknown version is a 400 naming the supported ones; the version header is ignored outside the App API', async (t) => {
    for (const bad of ['2025-01', 'latest', '2026-13', '']) {
      const response = await get(old, '/app-api/orders', bad)
      t.equal(response.statusCode, 400, `"${bad}" → 400`)
      t.equal(response.json().code, 'api_version_unsupported')
      t.same(response.json().supportedVersions, ['2026-11', '2026-12'])
    }
    const unauthenticated = await app.inject({ method: 'GET', url: '/app-api/orders', headers: { 'app-api-version': 'nonsense' } })
    t.equal(unauthenticated.statusCode, 401, 'the token is checked first')
    const outside = await app.inject({ method: 'GET', url: '/developer/api-versions', headers: { 'app-api-version': 'nonsense' } })
    t.equal(outside.statusCode, 200, 'a route that is not versioned ignores the header')
    t.notOk(outside.headers['app-api-version'])
    const merchant = await app.inject({ method: 'GET', url: '/health', headers: { 'app-api-version': '1999-01' } })
    t.equal(merchant.statusCode, 200)
  })

  t.test('a scope the token lacks is still a 403 under a named version', async (t) => {
    const response = await get(old, '/app-api/reviews', '2026-12')
    t.equal(response.statusCode, 403)
  })
})
