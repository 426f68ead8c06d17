import t from 'tap'
import { build } from '../../helper.ts'
import { firstOf, installApp, testUninstall } from './fixtures.ts'

type Method = 'GET' | 'POST' | 'PATCH'
interface RouteCase { method: Method, url: string, scope: string, payload?: Record<string, unknown> }

t.test('App API authentication and scopes', async (t) => {
  // every route is called without a valid token too: those calls count against the test's one address
  const app = await build(t, { env: { RATE_LIMIT_PER_MINUTE: '1000' } })
  const full = await installApp(app)
  const product = await firstOf(app, full, '/app-api/products')
  const order = await firstOf(app, full, '/app-api/orders')

  /** Every App API route, with a valid request for it, and its scope (DESIGN §7). */
  const ROUTES: RouteCase[] = [
    { method: 'GET', url: '/app-api/products', scope: 'read_products' },
    { method: 'GET', url: `/app-api/products/${product.id}`, scope: 'read_products' },
    { method: 'GET', url: `/app-api/products/slug/${product.slug}`, scope: 'read_products' },
    { method: 'GET', url: '/app-api/orders', scope: 'read_orders' },
    { method: 'GET', url: `/app-api/orders/${order.id}`, scope: 'read_orders' },
    { method: 'PATCH', url: `/app-api/orders/${order.id}/status`, scope: 'write_orders', payload: { status: 'CANCELLED' } },
    { method: 'POST', url: '/app-api/orders', scope: 'write_orders', payload: { items: [{ productId: product.id, quantity: 1 }], customer: { name: 'Ana' }, deliveryMethod: 'PICKUP', paymentMethod: 'CASH' } },
    { method: 'POST', url: `/app-api/orders/${order.id}/payment`, scope: 'write_payments', payload: { status: 'COMPLETED' } },
    { method: 'GET', url: '/app-api/reviews', scope: 'read_reviews' },
    { method: 'GET', url: '/app-api/reviews/stats', scope: 'read_reviews' },
    { method: 'GET', url: '/app-api/analytics/dashboard', scope: 'read_analytics' },
    { method: 'GET', url: '/app-api/business', scope: 'read_business' },
    { method: 'GET', url: '/app-api/pages', scope: 'read_pages' },
    { method: 'GET', url: '/app-api/pages/home', scope: 'read_pages' }
  ]
  const send = (route: RouteCase, headers: Record<string, string>) =>
    app.inject({ method: route.method, url: route.url, headers, ...(route.payload === undefined ? {} : { payload: route.payload }) })

  t.test('every route answers 401 without a token and with a garbage token', async (t) => {
    for (const route of ROUTES) {
      for (const headers of [{} as Record<string, string>, { authorization: 'Bearer fbat_garbage-garbage-garbage-garbage' }, { authorization: 'Basic abc' }, { authorization: `Bearer ${full.token}x` }]) {
        const response = await send(route, headers)
        t.equal(response.statusCode, 401, `${route.method} ${route.url} ${JSON.stringify(headers)}`)
        t.match(response.json(), { statusCode: 401, error: 'Unauthorized', message: String })
      }
    }
  })

  t.test('the scheme name is case-insensitive (RFC 6750): bearer, as /oauth/token names it, works', async (t) => {
    for (const scheme of ['bearer', 'BEARER', 'BeArEr']) {
      const response = await app.inject({ url: '/app-api/business', headers: { authorization: `${scheme} ${full.token}` } })
      t.equal(response.statusCode, 200, scheme)
    }
    t.equal((await app.inject({ url: '/app-api/business', headers: { authorization: `Bearerx ${full.token}` } })).statusCode, 401, 'another scheme is not')
  })

  t.test('every route answers 403 naming its scope when the token lacks it', async (t) => {
    const scopes = [...new Set(ROUTES.map((route) => route.scope))]
    for (const scope of scopes) {
      const without = await installApp(app, ['read_products', 'read_orders', 'write_orders', 'write_payments', 'read_reviews', 'read_analytics', 'read_business', 'read_pages'].filter((s) => s !== scope))
      for (const route of ROUTES.filter((r) => r.scope === scope)) {
        // a request that would otherwise succeed, aimed at the installation's own sandbox
        const response = await send({ ...route, url: route.url.replace(product.id, 'prod_x').replace(order.id, 'ord_x') }, without.auth)
        t.equal(response.statusCode, 403, `${route.method} ${route.url}`)
        t.same(response.json(), { statusCode: 403, error: 'Forbidden', message: `This endpoint requires the ${scope} scope`, code: 'scope_missing' })
        t.ok(response.headers['x-ratelimit-remaining'] !== undefined, 'a refused call still counts against the rate limit')
      }
    }
  })

  t.test('the scope is checked before the body: a token without write_orders gets 403, not 400', async (t) => {
    const readOnly = await installApp(app, ['read_orders'])
    const response = await app.inject({ method: 'POST', url: '/app-api/orders', headers: readOnly.auth, payload: { nonsense: true } })
    t.equal(response.statusCode, 403)
  })

  t.test('every route answers 401 with a revoked token (after test-uninstall)', async (t) => {
    const revoked = await installApp(app)
    const ownProduct = await firstOf(app, revoked, '/app-api/products')
    const ownOrder = await firstOf(app, revoked, '/app-api/orders')
    await testUninstall(app, revoked)
    for (const route of ROUTES) {
      const url = route.url.replace(product.id, ownProduct.id).replace(order.id, ownOrder.id)
      const response = await send({ ...route, url }, revoked.auth)
      t.equal(response.statusCode, 401, `${route.method} ${route.url}`)
      t.equal(response.json().message, 'Invalid or revoked access token')
    }
  })

  t.test('rate-limit headers on App API responses: X-RateLimit-Limit, -Remaining, -Reset (Unix time)', async (t) => {
    const fresh = await installApp(app)
    const now = Math.floor(Date.now() / 1000)
    const first = await app.inject({ method: 'GET', url: '/app-api/business', headers: fresh.auth })
    t.equal(first.statusCode, 200)
    t.equal(first.headers['x-ratelimit-limit'], '1000')
    t.equal(first.headers['x-ratelimit-remaining'], '999')
    const reset = Number(first.headers['x-ratelimit-reset'])
    t.ok(reset >= now && reset <= now + 61, `reset ${reset} is a Unix time within the minute`)
    const notFound = await app.inject({ method: 'GET', url: '/app-api/products/prod_none', headers: fresh.auth })
    t.equal(notFound.statusCode, 404)
    t.equal(notFound.headers['x-ratelimit-remaining'], '998', 'errors carry the headers too')
    const invalid = await app.inject({ method: 'GET', url: '/app-api/products?limit=0', headers: fresh.auth })
    t.equal(invalid.statusCode, 400)
    t.equal(invalid.headers['x-ratelimit-remaining'], '997')
  })
})

t.test('a call past the per-minute limit is 429 with Retry-After; other installations keep their budget', async (t) => {
  const app = await build(t, { env: { RATE_LIMIT_PER_MINUTE: '3' } })
  const one = await installApp(app, ['read_business'])
  const two = await installApp(app, ['read_business'])
  for (let i = 0; i < 3; i++) t.equal((await app.inject({ method: 'GET', url: '/app-api/business', headers: one.auth })).statusCode, 200)
  const limited = await app.inject({ method: 'GET', url: '/app-api/business', headers: one.auth })
  t.equal(limited.statusCode, 429)
  t.match(limited.json(), { statusCode: 429, error: 'Too Many Requests', message: /3 requests per minute/ })
  t.ok(Number(limited.headers['retry-after']) > 0)
  t.equal(limited.headers['x-ratelimit-remaining'], '0')
  t.equal((await app.inject({ method: 'GET', url: '/app-api/business', headers: two.auth })).statusCode, 200)
})
