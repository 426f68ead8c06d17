import t from 'tap'
import { eq, sql } from 'drizzle-orm'
import { products } from '../../../server/db/schema/index.ts'
import { build, loginReviewer, registerUser, REVIEWER_ENV } from '../../helper.ts'
import { createProduct, eventsOf, eventNames, newMerchant } from './fixtures.ts'

t.test('merchant products', async (t) => {
  const app = await build(t, { env: REVIEWER_ENV })
  const merchant = await newMerchant(app)
  const other = await newMerchant(app)
  const inject = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: unknown, headers = merchant.auth) =>
    app.inject({ method, url, headers, ...(payload !== undefined ? { payload: payload as object } : {}) })

  t.test('POST /merchant/products creates a product and emits product.created', async (t) => {
    const response = await inject('POST', '/merchant/products', { name: ' Margherita Pizza ', price: 1150, category: 'Pizza', stock: 3, lowStockThreshold: 2 })
    t.equal(response.statusCode, 201)
    const product = response.json()
    t.match(product, { id: /^prod_/, name: 'Margherita Pizza', slug: 'margherita-pizza', price: 1150, category: 'Pizza', isAvailable: true, status: 'ACTIVE', stock: 3, lowStockThreshold: 2, description: '', imageUrl: '' })
    t.same(Object.keys(product).sort(), ['category', 'createdAt', 'description', 'id', 'imageUrl', 'isAvailable', 'lowStockThreshold', 'name', 'price', 'slug', 'status', 'stock', 'updatedAt'])
    const events = await eventsOf(app, merchant.businessId, 'product.created')
    t.equal(events.length, 1, 'written exactly once')
    t.same(events[0].data, product, 'data is the product')

    const again = await inject('POST', '/merchant/products', { name: 'Margherita pizza', price: 1 })
    t.equal(again.json().slug, 'margherita-pizza-2', 'a free slug is picked')
    const taken = await inject('POST', '/merchant/products', { name: 'X', price: 1, slug: 'margherita-pizza' })
    t.equal(taken.statusCode, 409)
  })

  t.test('POST /merchant/products refuses bad input and writes nothing', async (t) => {
    const before = (await eventNames(app, merchant.businessId)).length
    const cases: Array<[string, unknown]> = [
      ['a price as text', { name: 'A', price: 'ten' }],
      ['a negative price', { name: 'A', price: -1 }],
      ['a fractional price', { name: 'A', price: 10.5 }],
      ['a 10 000-character name', { name: 'n'.repeat(10_000), price: 1 }],
      ['an empty name', { name: '', price: 1 }],
      ['a missing price', { name: 'A' }],
      ['an unknown status', { name: 'A', price: 1, status: 'GONE' }],
      ['a negative stock', { name: 'A', price: 1, stock: -1 }],
      ['a bad slug', { name: 'A', price: 1, slug: 'Not A Slug' }],
      ['an unknown field', { name: 'A', price: 1, businessId: other.businessId }]
    ]
    for (const [name, body] of cases) {
      const response = await inject('POST', '/merchant/products', body)
      t.equal(response.statusCode, 400, name)
      t.match(response.json(), { statusCode: 400, error: 'Bad Request', message: String }, name)
    }
    const [{ n }] = await app.db.select({ n: sql<number>`count(*)::int` }).from(products).where(eq(products.businessId, merchant.businessId))
    t.equal(n, 2, 'only the two earlier products exist')
    t.equal((await eventNames(app, merchant.businessId)).length, before, 'no event')
  })

  t.test('GET /merchant/products/:id and PATCH change one product; product.updated carries it', async (t) => {
    const created = await createProduct(app, merchant, { name: 'Lemonade', price: 350 })
    const got = await inject('GET', `/merchant/products/${created.id}`)
    t.equal(got.statusCode, 200)
    t.same(got.json(), created)
    const patched = await inject('PATCH', `/merchant/products/${created.id}`, { price: 400, description: 'Fresh' })
    t.equal(patched.statusCode, 200)
    t.match(patched.json(), { price: 400, description: 'Fresh', name: 'Lemonade' })
    const [event] = await eventsOf(app, merchant.businessId, 'product.updated')
    t.same(event.data, patched.json())
    t.equal((await inject('PATCH', `/merchant/products/${created.id}`, {})).statusCode, 400, 'an empty patch is a 400')
    t.equal((await inject('PATCH', `/merchant/products/${created.id}`, { price: -5 })).statusCode, 400)
  })

  t.test('DELETE /merchant/products/:id removes it and emits product.deleted', async (t) => {
    const created = await createProduct(app, merchant, { name: 'Doomed' })
    const response = await inject('DELETE', `/merchant/products/${created.id}`)
    t.equal(response.statusCode, 204)
    t.equal((await inject('GET', `/merchant/products/${created.id}`)).statusCode, 404)
    t.equal((await inject('DELETE', `/merchant/products/${created.id}`)).statusCode, 404)
    const deleted = await eventsOf(app, merchant.businessId, 'product.deleted')
    t.equal(deleted.length, 1)
    t.equal(deleted[0].data.id, created.id)
  })

  t.test("another merchant's product is 404 everywhere and stays untouched", async (t) => {
    const theirs = await createProduct(app, other, { name: 'Theirs', price: 999 })
    for (const [method, payload] of [['GET'], ['PATCH', { price: 1 }], ['DELETE']] as const) {
      const response = await inject(method, `/merchant/products/${theirs.id}`, payload)
      t.equal(response.statusCode, 404, method)
      t.match(response.json(), { statusCode: 404, error: 'Not Found', message: 'Product not found' })
    }
    const list = (await inject('GET', '/merchant/products?limit=100')).json()
    t.notOk(list.data.some((p: { id: string }) => p.id === theirs.id), 'not in my list')
    t.equal((await inject('GET', `/merchant/products/${theirs.id}`, undefined, other.auth)).json().price, 999)
    t.equal((await eventNames(app, merchant.businessId)).filter((e) => e === 'product.deleted').length, 1, 'no event for the other business')
  })

  t.test('/merchant/products needs a merchant token', async (t) => {
    t.equal((await app.inject({ method: 'GET', url: '/merchant/products' })).statusCode, 401)
    t.equal((await app.inject({ method: 'GET', url: '/merchant/products', headers: { authorization: 'Bearer nope' } })).statusCode, 401)
    const response = await inject('POST', '/merchant/products', { name: 'A', price: 1 }, (await loginReviewer(app)).auth)
    t.equal(response.statusCode, 403, 'a reviewer has no business')
    t.match(response.json(), { statusCode: 403, error: 'Forbidden' })
    // a developer acts as the merchant of their sandbox (DESIGN §16): the product lands there
    const developer = await registerUser(app, 'DEVELOPER')
    const created = await inject('POST', '/merchant/products', { name: 'Sandbox thing', price: 1 }, developer.auth)
    t.equal(created.statusCode, 201)
    t.equal((await inject('GET', `/merchant/products/${created.json().id as string}`, undefined, developer.auth)).statusCode, 200)
    t.equal((await inject('GET', `/merchant/products/${created.json().id as string}`)).statusCode, 404, 'not on the merchant’s business')
  })
})

t.test('GET /merchant/products pagination', async (t) => {
  const app = await build(t)
  const merchant = await newMerchant(app)
  const created = []
  for (let i = 0; i < 5; i++) created.push(await createProduct(app, merchant, { name: `P${i}`, category: i % 2 === 0 ? 'even' : 'odd' }))
  const get = (query: string) => app.inject({ method: 'GET', url: `/merchant/products${query}`, headers: merchant.auth })

  const first = (await get('')).json()
  t.match(first, { total: 5, page: 1, limit: 50 }, 'default limit 50')
  t.same(first.data.map((p: { id: string }) => p.id), created.map((p) => p.id).reverse(), 'newest first')
  const page2 = (await get('?page=2&limit=2')).json()
  t.same(page2.data.map((p: { name: string }) => p.name), ['P2', 'P1'])
  t.match(page2, { total: 5, page: 2, limit: 2 })
  const beyond = (await get('?page=9&limit=2')).json()
  t.same(beyond, { data: [], total: 5, page: 9, limit: 2 }, 'a page beyond the end is empty with the right total')
  t.match((await get('?limit=1000')).json(), { limit: 100, total: 5 }, 'clamped to 100 and reported')
  t.equal((await get('?category=even')).json().total, 3, 'filtered by category')
  for (const query of ['?limit=0', '?limit=-1', '?limit=ten', '?page=0', '?page=abc']) {
    t.equal((await get(query)).statusCode, 400, query)
  }
  t.equal((await get('?sort=name')).statusCode, 200, 'an unknown query parameter is ignored, on every operation alike')
})
