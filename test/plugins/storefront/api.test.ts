import t from 'tap'
import { randomBytes } from 'node:crypto'
import { buildApp } from '../../../server/app.ts'
import { build, registerUser, testConfig, REDIS_URL, redisReachable } from '../../helper.ts'
import { createProduct, eventsOf } from '../commerce/fixtures.ts'
import { businessSlug } from './fixtures.ts'

t.test('GET /store/:businessSlug/api/products', async (t) => {
  const app = await build(t)
  const merchant = await registerUser(app, 'MERCHANT')
  const other = await registerUser(app, 'MERCHANT')
  const slug = await businessSlug(app, merchant)
  const visible: Array<{ id: string }> = []
  for (let i = 0; i < 3; i++) visible.push(await createProduct(app, merchant, { name: `Cake ${i}`, price: 500 + i, category: i === 0 ? 'pies' : 'cakes', stock: 7 }))
  await createProduct(app, merchant, { name: 'Unavailable', price: 1, isAvailable: false })
  await createProduct(app, merchant, { name: 'Archived', price: 1, status: 'ARCHIVED' })
  await createProduct(app, other, { name: 'Elsewhere', price: 1 })

  t.test('lists available ACTIVE products, newest first, without stock figures', async (t) => {
    const response = await app.storefront.inject({ url: `/store/${slug}/api/products` })
    t.equal(response.statusCode, 200)
    const body = response.json()
    t.same(body.data.map((p: any) => p.name), ['Cake 2', 'Cake 1', 'Cake 0'])
    t.same({ total: body.total, page: body.page, limit: body.limit }, { total: 3, page: 1, limit: 50 })
    t.same(Object.keys(body.data[0]).sort(), ['category', 'currency', 'description', 'id', 'imageUrl', 'name', 'price', 'slug'])
    t.match(body.data[0], { id: visible[2].id, price: 502, currency: 'USD' })
  })

  t.test('paginates (limit clamped at 100) and filters by category', async (t) => {
    const page2 = (await app.storefront.inject({ url: `/store/${slug}/api/products?limit=2&page=2` })).json()
    t.same(page2.data.map((p: any) => p.name), ['Cake 0'])
    t.same([page2.total, page2.page, page2.limit], [3, 2, 2])
    t.equal((await app.storefront.inject({ url: `/store/${slug}/api/products?limit=500` })).json().limit, 100)
    t.same((await app.storefront.inject({ url: `/store/${slug}/api/products?category=pies` })).json().data.map((p: any) => p.name), ['Cake 0'])
  })

  t.test('bad input is a 400, an unknown store a 404, both JSON', async (t) => {
    for (const query of ['page=0', 'limit=abc']) {
      const response = await app.storefront.inject({ url: `/store/${slug}/api/products?${query}` })
      t.equal(response.statusCode, 400, query)
      t.equal(response.json().statusCode, 400)
    }
    const missing = await app.storefront.inject({ url: '/store/no-such-shop/api/products' })
    t.equal(missing.statusCode, 404)
    t.same(missing.json(), { statusCode: 404, error: 'Not Found', message: 'Store not found', code: 'store_not_found' })
  })
})

t.test('POST /store/:businessSlug/api/reviews', async (t) => {
  const app = await build(t)
  const merchant = await registerUser(app, 'MERCHANT')
  const other = await registerUser(app, 'MERCHANT')
  const slug = await businessSlug(app, merchant)
  const product = await createProduct(app, merchant, { name: 'Baguette', price: 300 })
  const archived = await createProduct(app, merchant, { name: 'Old', price: 300, status: 'ARCHIVED' })
  const foreign = await createProduct(app, other, { name: 'Theirs', price: 300 })
  const post = (payload: unknown, store = slug) => app.storefront.inject({ method: 'POST', url: `/store/${store}/api/reviews`, payload: payload as object })

  t.test('a customer’s review is stored and emits review.created', async (t) => {
    const response = await post({ productId: product.id, rating: 5, text: '  Crisp!  ', authorName: ' Ana ' })
    t.equal(response.statusCode, 201, response.body)
    const review = response.json()
    t.match(review, { productId: product.id, rating: 5, text: 'Crisp!', authorName: 'Ana' })
    const [event] = await eventsOf(app, merchant.businessId, 'review.created')
    t.match(event.data, { id: review.id, productId: product.id, rating: 5 })
    const listed = (await app.inject({ url: '/merchant/reviews', headers: merchant.auth })).json()
    t.same(listed.data.map((r: any) => r.id), [review.id], 'the merchant sees it')
  })

  t.test('the product must be one this store shows', async (t) => {
    for (const productId of [foreign.id, archived.id, 'prod_nope']) {
      const response = await post({ productId, rating: 4, authorName: 'Bo' })
      t.equal(response.statusCode, 404, productId)
      t.equal(response.json().message, 'Product not found')
    }
    t.equal((await post({ productId: product.id, rating: 4, authorName: 'Bo' }, 'no-such-shop')).statusCode, 404)
    t.equal((await eventsOf(app, other.businessId, 'review.created')).length, 0, 'nothing written for the other business')
  })

  t.test('strict bodies', async (t) => {
    for (const payload of [
      { productId: product.id, rating: 6, authorName: 'Bo' },
      { productId: product.id, rating: 0, authorName: 'Bo' },
      { productId: product.id, rating: 4.5, authorName: 'Bo' },
      { productId: product.id, rating: '5', authorName: 'Bo' },
      { productId: product.id, rating: 5, authorName: '' },
      { productId: product.id, rating: 5 },
      { productId: product.id, rating: 5, authorName: 'Bo', isVerified: true }
    ]) {
      const response = await post(payload)
      t.equal(response.statusCode, 400, JSON.stringify(payload))
    }
    const malformed = await app.storefront.inject({ method: 'POST', url: `/store/${slug}/api/reviews`, headers: { 'content-type': 'application/json' }, payload: '{"rating":' })
    t.equal(malformed.statusCode, 400)
    t.equal((await eventsOf(app, merchant.businessId, 'review.created')).length, 1)
  })
})

t.test('public writes are limited per client address and store (STOREFRONT_RATE_LIMIT_PER_MINUTE)', async (t) => {
  const app = await build(t, { env: { STOREFRONT_RATE_LIMIT_PER_MINUTE: '3' } })
  const merchant = await registerUser(app, 'MERCHANT')
  const other = await registerUser(app, 'MERCHANT')
  const slug = await businessSlug(app, merchant)
  const otherSlug = await businessSlug(app, other)
  const product = await createProduct(app, merchant, { name: 'Baguette', price: 300, stock: 50 })
  const theirs = await createProduct(app, other, { name: 'Croissant', price: 250, stock: 50 })
  const review = (store: string, productId: string, remoteAddress = '203.0.113.7') =>
    app.storefront.inject({ method: 'POST', url: `/store/${store}/api/reviews`, remoteAddress, payload: { productId, rating: 5, authorName: 'Ana' } })

  for (let i = 0; i < 3; i++) t.equal((await review(slug, product.id)).statusCode, 201, `review ${i + 1} of 3`)
  const refused = await review(slug, product.id)
  t.equal(refused.statusCode, 429)
  t.same(Object.keys(refused.json()).sort(), ['code', 'error', 'message', 'statusCode'], 'the error format')
  t.match(refused.json(), { statusCode: 429, error: 'Too Many Requests', code: 'rate_limited', message: /3 per minute/ })
  t.ok(Number(refused.headers['retry-after']) > 0, 'Retry-After')
  t.equal((await review(slug, product.id, '198.51.100.9')).statusCode, 201, 'another address has its own budget')
  t.equal((await review(otherSlug, theirs.id)).statusCode, 201, 'another store too')
  t.equal((await app.storefront.inject({ url: `/store/${slug}/api/products`, remoteAddress: '203.0.113.7' })).statusCode, 200, 'reads are not limited')

  const order = () => app.storefront.inject({
    method: 'POST', url: `/store/${slug}/api/orders`, remoteAddress: '203.0.113.7',
    payload: { items: [{ productId: product.id, quantity: 1 }], customer: { name: 'Ana', phone: '+15550100' }, deliveryMethod: 'PICKUP', paymentMethod: 'CASH' }
  })
  const quote = () => app.storefront.inject({ method: 'POST', url: `/store/${slug}/api/checkout/quote`, remoteAddress: '203.0.113.7', payload: { items: [{ productId: product.id, quantity: 1 }], deliveryMethod: 'PICKUP' } })
  for (let i = 0; i < 3; i++) t.equal((await order()).statusCode, 201, `order ${i + 1} of 3 (each route counts on its own)`)
  t.equal((await order()).statusCode, 429, 'orders are limited')
  for (let i = 0; i < 3; i++) t.equal((await quote()).statusCode, 200, `quote ${i + 1} of 3`)
  t.equal((await quote()).statusCode, 429, 'quotes are limited')
  const placed = (await app.inject({ url: '/merchant/orders', headers: merchant.auth })).json()
  t.equal(placed.total, 3, 'the refused order wrote nothing')
})

t.test('the client address: X-Forwarded-For behind a proxy (TRUST_PROXY=true), the socket by default (false)', async (t) => {
  for (const [trust, spoofable] of [['true', true], ['false', false]] as const) {
    const app = await build(t, { env: { STOREFRONT_RATE_LIMIT_PER_MINUTE: '1', TRUST_PROXY: trust } })
    const merchant = await registerUser(app, 'MERCHANT')
    const slug = await businessSlug(app, merchant)
    const product = await createProduct(app, merchant, { name: 'Baguette', price: 300 })
    const review = (forwardedFor: string) => app.storefront.inject({
      method: 'POST', url: `/store/${slug}/api/reviews`, remoteAddress: '10.0.0.5', headers: { 'x-forwarded-for': forwardedFor },
      payload: { productId: product.id, rating: 5, authorName: 'Ana' }
    })
    t.equal((await review('203.0.113.1')).statusCode, 201, `TRUST_PROXY=${trust}: first call`)
    t.equal((await review('203.0.113.2')).statusCode, spoofable ? 201 : 429,
      spoofable ? 'behind a load balancer each forwarded client has its own budget' : 'without a trusted proxy the header is ignored')
  }
})

const redisUp = await redisReachable()
t.test('with REDIS_URL two instances share the storefront budget', { skip: redisUp ? false : `no Redis at ${REDIS_URL}` }, async (t) => {
  const env = { STOREFRONT_RATE_LIMIT_PER_MINUTE: '2', REDIS_URL }
  const one = await build(t, { env })
  const two = await buildApp({ config: testConfig(env, one.config.databaseUrl), database: one.database })
  t.teardown(() => two.close())
  // Redis outlives the test database: a store slug of its own, so an earlier run's counts cannot interfere
  const merchant = await registerUser(one, 'MERCHANT', { businessName: `Redis shop ${randomBytes(6).toString('hex')}` })
  const slug = await businessSlug(one, merchant)
  const product = await createProduct(one, merchant, { name: 'Baguette', price: 300 })
  const review = (app: typeof one) => app.storefront.inject({ method: 'POST', url: `/store/${slug}/api/reviews`, remoteAddress: '192.0.2.44', payload: { productId: product.id, rating: 4, authorName: 'Bo' } })
  t.equal((await review(one)).statusCode, 201)
  t.equal((await review(two)).statusCode, 201)
  t.equal((await review(one)).statusCode, 429, 'instance one counts instance two’s call')
})

t.test('POST /store/:businessSlug/api/checkout/quote', async (t) => {
  const app = await build(t)
  const merchant = await registerUser(app, 'MERCHANT')
  const slug = await businessSlug(app, merchant)
  const product = await createProduct(app, merchant, { name: 'Pie', price: 900, stock: 5 })
  const items = [{ productId: product.id, quantity: 2 }]

  t.test('prices DELIVERY before the shopper typed an address (DESIGN §6 quote body)', async (t) => {
    const response = await app.storefront.inject({ method: 'POST', url: `/store/${slug}/api/checkout/quote`, payload: { items, deliveryMethod: 'DELIVERY', locality: 'Centre' } })
    t.equal(response.statusCode, 200)
    t.match(response.json(), { subtotal: 1800, deliveryFee: Number, total: Number })
    t.ok(response.json().deliveryFee > 0, 'a delivery fee')
  })

  t.test('the order still requires an address for DELIVERY', async (t) => {
    const customer = { name: 'Ana', phone: '+15550100', email: 'ana@example.com' }
    const response = await app.storefront.inject({ method: 'POST', url: `/store/${slug}/api/orders`, payload: { items, deliveryMethod: 'DELIVERY', customer, paymentMethod: 'CASH' } })
    t.equal(response.statusCode, 400)
    t.match(response.json(), { statusCode: 400, message: /address/ })
  })
})
