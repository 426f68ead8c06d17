import t from 'tap'
import { PRODUCT_PAGE_LIMITS } from '../../../plugins/commerce/schemas.ts'
import { createProduct as createProductRow } from '../../../plugins/commerce/products-service.ts'
import { build, registerUser } from '../../helper.ts'
import { createProduct } from '../commerce/fixtures.ts'
import { NO_RATE_LIMIT, call, checkPagination, firstOf, installApp } from './fixtures.ts'

const PRODUCT_KEYS = ['category', 'createdAt', 'description', 'id', 'imageUrl', 'isAvailable', 'lowStockThreshold', 'name', 'price', 'slug', 'status', 'stock', 'updatedAt']

t.test('App API products', async (t) => {
  const app = await build(t, NO_RATE_LIMIT)
  const installed = await installApp(app, ['read_products'])
  const other = await installApp(app, ['read_products'])
  const foreign = await firstOf(app, other, '/app-api/products')

  t.test('GET /app-api/products lists the business products with the spec fields', async (t) => {
    const response = await call(app, installed, 'GET', '/app-api/products')
    t.equal(response.statusCode, 200)
    const body = response.json()
    t.equal(body.total, 6, 'the six sample products of the sandbox')
    t.same(Object.keys(body).sort(), ['data', 'limit', 'page', 'total'])
    for (const product of body.data) {
      t.same(Object.keys(product).sort(), PRODUCT_KEYS)
      t.match(product, { id: String, name: String, price: Number, isAvailable: Boolean, status: 'ACTIVE', createdAt: /^\d{4}-\d\d-\d\dT.*Z$/ })
      t.ok(Number.isInteger(product.price), 'price in integer minor units')
    }
    t.notOk(body.data.some((p: { id: string }) => p.id === foreign.id), "no other business's product")
  })

  t.test('GET /app-api/products?category filters', async (t) => {
    const body = (await call(app, installed, 'GET', '/app-api/products?category=Pizza')).json()
    t.equal(body.total, 2)
    t.ok(body.data.every((p: { category: string }) => p.category === 'Pizza'))
    t.same((await call(app, installed, 'GET', '/app-api/products?category=Nothing')).json(), { data: [], total: 0, page: 1, limit: 50 })
    t.equal((await call(app, installed, 'GET', '/app-api/products?category=')).statusCode, 400)
    t.equal((await call(app, installed, 'GET', '/app-api/products?unknown=1')).statusCode, 200, 'unknown query parameters are ignored, as on every operation')
  })

  t.test('GET /app-api/products pagination edges (50 / 100)', async (t) => {
    await checkPagination(t, app, installed, '/app-api/products', PRODUCT_PAGE_LIMITS)
  })

  t.test('GET /app-api/products clamps to 100 on a catalogue larger than the maximum', async (t) => {
    const merchant = await installApp(app, ['read_products'])
    // a developer cannot use the merchant API on the sandbox: write through the commerce service
    for (let i = 0; i < 101; i++) await createProductRow(app.db, merchant.businessId, { name: `Bulk ${i}`, price: 100 + i })
    const page = (await call(app, merchant, 'GET', '/app-api/products?limit=1000')).json()
    t.equal(page.limit, 100)
    t.equal(page.data.length, 100)
    t.equal(page.total, 107)
    const last = (await call(app, merchant, 'GET', '/app-api/products?limit=100&page=2')).json()
    t.equal(last.data.length, 7)
  })

  t.test('GET /app-api/products/:id', async (t) => {
    const product = await firstOf(app, installed, '/app-api/products')
    const response = await call(app, installed, 'GET', `/app-api/products/${product.id}`)
    t.equal(response.statusCode, 200)
    t.same(response.json(), product)
    const missing = await call(app, installed, 'GET', `/app-api/products/${foreign.id}`)
    t.equal(missing.statusCode, 404, "another business's product is 404")
    t.same(missing.json(), { statusCode: 404, error: 'Not Found', message: 'Product not found', code: 'product_not_found' })
    t.equal((await call(app, installed, 'GET', '/app-api/products/prod_unknown')).statusCode, 404)
    t.equal((await call(app, installed, 'GET', `/app-api/products/${'x'.repeat(65)}`)).statusCode, 400, 'an id too long is 400, not 500')
  })

  t.test('GET /app-api/products/slug/:slug', async (t) => {
    const product = await firstOf(app, installed, '/app-api/products')
    const response = await call(app, installed, 'GET', `/app-api/products/slug/${product.slug}`)
    t.equal(response.statusCode, 200)
    t.same(response.json(), product)
    // both sandboxes have the same sample slugs: each token sees its own product
    t.equal((await call(app, other, 'GET', `/app-api/products/slug/${product.slug}`)).json().id, (await firstOf(app, other, `/app-api/products?category=${encodeURIComponent(product.category)}`)).id)
    const elsewhere = await createProduct(app, await registerUser(app, 'MERCHANT'), { name: 'Only Elsewhere', slug: 'only-elsewhere' })
    const missing = await call(app, installed, 'GET', `/app-api/products/slug/${elsewhere.slug}`)
    t.equal(missing.statusCode, 404, "another business's slug is 404")
    t.same(missing.json(), { statusCode: 404, error: 'Not Found', message: 'Product not found', code: 'product_not_found' })
    t.equal((await call(app, installed, 'GET', '/app-api/products/slug/Not%20A%20Slug')).statusCode, 400)
  })
})
