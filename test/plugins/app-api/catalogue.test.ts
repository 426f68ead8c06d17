import t from 'tap'
import { PAGE_PAGE_LIMITS, REVIEW_PAGE_LIMITS } from '../../../plugins/commerce/schemas.ts'
import { build, registerUser } from '../../helper.ts'
import { createProduct } from '../commerce/fixtures.ts'
import { NO_RATE_LIMIT, call, checkPagination, firstOf, installApp } from './fixtures.ts'

t.test('App API reviews, pages, business and dashboard', async (t) => {
  const app = await build(t, NO_RATE_LIMIT)
  const installed = await installApp(app, ['read_products', 'read_reviews', 'read_pages', 'read_business', 'read_analytics'])
  const other = await installApp(app, ['read_products', 'read_reviews', 'read_pages'])

  t.test('GET /app-api/reviews lists reviews, optionally of one product', async (t) => {
    const response = await call(app, installed, 'GET', '/app-api/reviews')
    t.equal(response.statusCode, 200)
    const body = response.json()
    t.match(body, { total: 6, page: 1, limit: 10 })
    for (const review of body.data) {
      t.same(Object.keys(review).sort(), ['authorName', 'createdAt', 'id', 'productId', 'rating', 'text', 'updatedAt'])
    }
    const productId = body.data[0].productId
    const one = (await call(app, installed, 'GET', `/app-api/reviews?productId=${productId}`)).json()
    t.ok(one.total >= 1)
    t.ok(one.data.every((r: { productId: string }) => r.productId === productId))
    const foreignProduct = await firstOf(app, other, '/app-api/products')
    t.same((await call(app, installed, 'GET', `/app-api/reviews?productId=${foreignProduct.id}`)).json(), { data: [], total: 0, page: 1, limit: 10 },
      "another business's product has no reviews here")
  })

  t.test('GET /app-api/reviews pagination edges (10 / 50)', async (t) => {
    await checkPagination(t, app, installed, '/app-api/reviews', REVIEW_PAGE_LIMITS)
  })

  t.test('GET /app-api/reviews/stats', async (t) => {
    const response = await call(app, installed, 'GET', '/app-api/reviews/stats')
    t.equal(response.statusCode, 200)
    // sample ratings 5, 4, 5, 3, 5, 4
    t.same(response.json(), { averageRating: 4.33, totalReviews: 6, distribution: { 1: 0, 2: 0, 3: 1, 4: 2, 5: 3 } })
    const foreignProduct = await firstOf(app, other, '/app-api/products')
    t.same((await call(app, installed, 'GET', `/app-api/reviews/stats?productId=${foreignProduct.id}`)).json(),
      { averageRating: 0, totalReviews: 0, distribution: { 1: 0, 2: 0, 3: 0, 4: 0, 5: 0 } })
    t.equal((await call(app, installed, 'GET', '/app-api/reviews/stats?productId=')).statusCode, 400)
    t.equal((await call(app, installed, 'GET', '/app-api/reviews/stats?page=1')).statusCode, 200, 'an unknown query parameter is ignored, on every operation alike')
  })

  t.test('GET /app-api/pages and /app-api/pages/:slug', async (t) => {
    const response = await call(app, installed, 'GET', '/app-api/pages')
    t.equal(response.statusCode, 200)
    const body = response.json()
    t.match(body, { total: 2, page: 1, limit: 20 })
    for (const page of body.data) t.same(Object.keys(page).sort(), ['blocks', 'id', 'isPublished', 'slug', 'title', 'updatedAt'])
    const home = await call(app, installed, 'GET', '/app-api/pages/home')
    t.equal(home.statusCode, 200)
    t.match(home.json(), { slug: 'home', title: 'Home', isPublished: true, blocks: [] })
    t.not(home.json().id, (await call(app, other, 'GET', '/app-api/pages/home')).json().id, 'each token sees its own home page')
    const merchant = await registerUser(app, 'MERCHANT')
    t.equal((await app.inject({ method: 'POST', url: '/merchant/pages', headers: merchant.auth, payload: { slug: 'only-elsewhere', title: 'Elsewhere' } })).statusCode, 201)
    const missing = await call(app, installed, 'GET', '/app-api/pages/only-elsewhere')
    t.equal(missing.statusCode, 404, "another business's page is 404")
    t.same(missing.json(), { statusCode: 404, error: 'Not Found', message: 'Page not found', code: 'page_not_found' })
    t.equal((await call(app, installed, 'GET', '/app-api/pages/NOT_A_SLUG')).statusCode, 400)
  })

  t.test('GET /app-api/pages pagination edges (20 / 100)', async (t) => {
    await checkPagination(t, app, installed, '/app-api/pages', PAGE_PAGE_LIMITS)
  })

  t.test('GET /app-api/business answers the token business profile', async (t) => {
    const response = await call(app, installed, 'GET', '/app-api/business')
    t.equal(response.statusCode, 200)
    const body = response.json()
    t.same(Object.keys(body).sort(), ['address', 'currency', 'email', 'id', 'locale', 'name', 'phone', 'slug', 'timezone', 'type'])
    t.equal(body.id, installed.businessId)
    t.not(body.id, other.businessId)
  })

  t.test('GET /app-api/analytics/dashboard: default last 30 days, from/to, bad periods are 400', async (t) => {
    const response = await call(app, installed, 'GET', '/app-api/analytics/dashboard')
    t.equal(response.statusCode, 200)
    const body = response.json()
    t.same(Object.keys(body).sort(), ['averageOrderValue', 'daily', 'from', 'orderCount', 'ordersByStatus', 'revenue', 'to', 'topProducts'])
    t.equal(body.daily.length, 30)
    // sample orders: two DELIVERED, one PREPARING, one PENDING count; the CANCELLED one does not
    t.equal(body.orderCount, 4)
    t.match(body.ordersByStatus, { DELIVERED: 2, CANCELLED: 1, PREPARING: 1, PENDING: 1, CONFIRMED: 0 })
    t.equal(body.revenue, body.daily.reduce((sum: number, d: { revenue: number }) => sum + d.revenue, 0))
    t.ok(body.topProducts.length > 0 && body.topProducts.length <= 5)
    const period = (await call(app, installed, 'GET', `/app-api/analytics/dashboard?from=${body.to}&to=${body.to}`)).json()
    t.match(period, { from: body.to, to: body.to, daily: [{ date: body.to }] })
    for (const query of ['from=2025-02-30', 'from=yesterday', 'from=2025-05-02&to=2025-05-01', 'from=2020-01-01&to=2025-01-01']) {
      t.equal((await call(app, installed, 'GET', `/app-api/analytics/dashboard?${query}`)).statusCode, 400, query)
    }
    const merchant = await registerUser(app, 'MERCHANT')
    await createProduct(app, merchant, { name: 'Unseen', price: 100 })
    t.same((await call(app, installed, 'GET', '/app-api/analytics/dashboard')).json(), body, 'another business changes nothing')
  })
})
