import type { IncomingMessage, ServerResponse } from 'node:http'
import t, { type Test } from 'tap'
import { AppApiError, createAppApiClient, paginate, parseRetryAfter } from '../../sdk/src/client.ts'
import type { ErrorCode } from '../../sdk/src/index.ts'
import type { Product } from '../../sdk/src/types.ts'
import { readText, sendJson, serve } from './http-server.ts'

const TOKEN = 'fbat_test_token'

interface Seen { method: string, path: string, query: Record<string, string>, authorization?: string, contentType?: string, body: string }

const error = (statusCode: number, reason: string, message: string, code = 'not_found', extra: Record<string, unknown> = {}) => ({ statusCode, error: reason, message, code, ...extra })
const rateHeaders = (remaining: number) => ({ 'x-ratelimit-limit': '60', 'x-ratelimit-remaining': String(remaining), 'x-ratelimit-reset': '1735689600' })

function product (n: number): Product {
  return { id: `prod_${n}`, name: `Product ${n}`, description: '', price: 100 * n, category: 'food', isAvailable: true, imageUrl: `/media/${n}.png`, slug: `product-${n}`, status: 'ACTIVE', stock: 10, lowStockThreshold: 2, createdAt: '2025-01-01T00:00:00.000Z', updatedAt: '2025-01-01T00:00:00.000Z' }
}

/** A canned App API: enough routes to check paths, methods, queries, bodies and errors. */
function cannedApi (seen: Seen[]) {
  let throttled = 0
  return (req: IncomingMessage, res: ServerResponse): void => {
    void (async () => {
      const url = new URL(req.url ?? '/', 'http://x')
      const body = await readText(req)
      seen.push({ method: req.method ?? '', path: url.pathname, query: Object.fromEntries(url.searchParams), authorization: req.headers.authorization, contentType: req.headers['content-type'], body })
      if (req.headers.authorization !== `Bearer ${TOKEN}`) return sendJson(res, 401, error(401, 'Unauthorized', 'Invalid or revoked access token'))
      const route = `${req.method} ${url.pathname}`
      switch (route) {
        case 'GET /app-api/products': {
          const page = Number(url.searchParams.get('page') ?? 1)
          const limit = Number(url.searchParams.get('limit') ?? 50)
          const all = Array.from({ length: 7 }, (_, i) => product(i + 1))
          return sendJson(res, 200, { data: all.slice((page - 1) * limit, page * limit), total: all.length, page, limit }, rateHeaders(59))
        }
        case 'GET /app-api/products/prod_1': return sendJson(res, 200, product(1), rateHeaders(58))
        case 'GET /app-api/products/slug/caf%C3%A9%2Fnoir': return sendJson(res, 200, product(2))
        case 'GET /app-api/products/missing': return sendJson(res, 404, error(404, 'Not Found', 'Product not found', 'product_not_found'))
        case 'GET /app-api/orders': return sendJson(res, 200, { data: [], total: 0, page: 1, limit: 20 })
        case 'PATCH /app-api/orders/ord_1/status': return sendJson(res, 409, error(409, 'Conflict', 'Cannot move from DELIVERED to PENDING', 'order_transition_invalid'))
        case 'GET /app-api/reviews': return sendJson(res, 200, { data: [], total: 0, page: 1, limit: 10 })
        case 'GET /app-api/reviews/stats': return sendJson(res, 200, { averageRating: 4.5, totalReviews: 2, distribution: { 1: 0, 2: 0, 3: 0, 4: 1, 5: 1 } })
        case 'GET /app-api/analytics/dashboard': return sendJson(res, 403, error(403, 'Forbidden', 'Missing scope read_analytics', 'scope_missing'))
        case 'GET /app-api/business': {
          throttled += 1
          if (throttled <= 2) return sendJson(res, 429, error(429, 'Too Many Requests', 'Rate limit exceeded'), { 'retry-after': throttled === 1 ? '1' : '0', ...rateHeaders(0) })
          return sendJson(res, 200, { id: 'biz_1', name: 'Shop' }, rateHeaders(60))
        }
        case 'GET /app-api/pages': return sendJson(res, 429, error(429, 'Too Many Requests', 'Rate limit exceeded'), { 'retry-after': '3600' })
        case 'POST /webhooks': if (JSON.parse(body).url === 'ftp://x') return sendJson(res, 400, error(400, 'Bad Request', 'body/url must be http(s)', 'validation_failed', { errors: [{ in: 'body', path: '/url', message: 'must be http(s)', code: 'webhook_url_invalid' }] }))
          return sendJson(res, 201, { id: 'wh_1', ...JSON.parse(body), secret: 'whsec_1', isActive: true, createdAt: '2025-01-01T00:00:00.000Z' })
        case 'DELETE /webhooks/wh_1': res.writeHead(204); res.end(); return
        case 'POST /webhooks/wh_1/deliveries/dlv_1/redeliver': return sendJson(res, 202, { queued: true })
        case 'GET /app-api/pages/about': res.writeHead(502, { 'content-type': 'text/html' }); res.end('<h1>Bad gateway</h1>'); return
        default: return sendJson(res, 404, error(404, 'Not Found', `Route ${route} not found`))
      }
    })()
  }
}

async function setup (t: Test, options: { maxRetries?: number } = {}) {
  const seen: Seen[] = []
  const baseUrl = await serve(t, cannedApi(seen))
  return { seen, client: createAppApiClient({ baseUrl, accessToken: TOKEN, ...options }) }
}

async function caught (promise: Promise<unknown>): Promise<AppApiError> {
  const result = await promise.then(() => null, (e: unknown) => e)
  if (!(result instanceof AppApiError)) throw new Error(`expected an AppApiError, got ${String(result)}`)
  return result
}

t.test('App API client (real HTTP)', async (t) => {
  t.test('sends the bearer token and query params, returns the JSON body', async (t) => {
    const { seen, client } = await setup(t)
    const list = await client.products.list({ page: 2, limit: 3 })
    t.same(list.data.map((p) => p.id), ['prod_4', 'prod_5', 'prod_6'])
    t.equal(list.total, 7)
    t.match(seen[0], { method: 'GET', path: '/app-api/products', query: { page: '2', limit: '3' }, authorization: `Bearer ${TOKEN}` })
    await client.orders.list({ status: 'CONFIRMED', limit: 5 })
    t.same(seen[1].query, { status: 'CONFIRMED', limit: '5' }, 'undefined params are left out')
    await client.reviews.list({ productId: 'prod_1' })
    t.same(seen[2].query, { productId: 'prod_1' })
    t.same(await client.reviews.stats(), { averageRating: 4.5, totalReviews: 2, distribution: { 1: 0, 2: 0, 3: 0, 4: 1, 5: 1 } })
  })

  t.test('encodes path segments', async (t) => {
    const { client } = await setup(t)
    t.equal((await client.products.get('prod_1')).id, 'prod_1')
    t.equal((await client.products.bySlug('café/noir')).id, 'prod_2')
  })

  t.test('sends JSON bodies and handles 201, 202 and 204', async (t) => {
    const { seen, client } = await setup(t)
    const created = await client.webhooks.create({ url: 'https://app.example.com/hooks', events: ['order.created'], description: 'orders' })
    t.match(created, { id: 'wh_1', url: 'https://app.example.com/hooks', events: ['order.created'], secret: 'whsec_1' })
    t.equal(seen[0].contentType, 'application/json')
    t.same(JSON.parse(seen[0].body), { url: 'https://app.example.com/hooks', events: ['order.created'], description: 'orders' })
    t.equal(await client.webhooks.delete('wh_1'), undefined)
    t.same(await client.webhooks.redeliver('wh_1', 'dlv_1'), { queued: true })
  })

  t.test('maps error bodies to AppApiError', async (t) => {
    const { client } = await setup(t)
    const notFound = await caught(client.products.get('missing'))
    t.match(notFound, { statusCode: 404, error: 'Not Found', message: 'Product not found', name: 'AppApiError' })
    t.match(await caught(client.orders.updateStatus('ord_1', 'PENDING')), { statusCode: 409, error: 'Conflict', message: 'Cannot move from DELIVERED to PENDING' })
    t.match(await caught(client.analytics.dashboard({ from: '2025-01-01', to: '2025-01-31' })), { statusCode: 403, message: 'Missing scope read_analytics' })
    t.match(await caught(client.pages.bySlug('about')), { statusCode: 502, error: 'Bad Gateway', message: '<h1>Bad gateway</h1>', code: null, errors: [] })
  })

  t.test('exposes the stable code and the problems of a validation error', async (t) => {
    const { client } = await setup(t)
    const notFound = await caught(client.products.get('missing'))
    const code: ErrorCode | null = notFound.code
    t.equal(code, 'product_not_found')
    t.equal((await caught(client.analytics.dashboard({ from: '2025-01-01', to: '2025-01-31' }))).code, 'scope_missing')
    const invalid = await caught(client.webhooks.create({ url: 'ftp://x', events: ['order.created'] }))
    t.equal(invalid.code, 'validation_failed')
    t.same(invalid.errors, [{ in: 'body', path: '/url', message: 'must be http(s)', code: 'webhook_url_invalid' }])
  })

  t.test('answers 401 for a revoked token as AppApiError', async (t) => {
    const seen: Seen[] = []
    const baseUrl = await serve(t, cannedApi(seen))
    const client = createAppApiClient({ baseUrl, accessToken: 'fbat_revoked' })
    t.match(await caught(client.business.get()), { statusCode: 401, error: 'Unauthorized' })
  })

  t.test('retries a 429 after Retry-After and exposes the X-RateLimit-* headers', async (t) => {
    const { seen, client } = await setup(t)
    t.equal(client.rateLimit, null)
    const started = Date.now()
    const business = await client.business.get()
    t.ok(Date.now() - started >= 950, 'waited the 1 s of the first Retry-After')
    t.same(business, { id: 'biz_1', name: 'Shop' })
    t.equal(seen.filter((s) => s.path === '/app-api/business').length, 3, 'two 429s, then success')
    t.same(client.rateLimit, { limit: 60, remaining: 60, reset: 1735689600 })
  })

  t.test('gives up after maxRetries, and at once when Retry-After exceeds the cap', async (t) => {
    const { seen, client } = await setup(t, { maxRetries: 1 })
    t.match(await caught(client.business.get()), { statusCode: 429, retryAfterSeconds: 0 })
    t.equal(seen.length, 2)
    t.same(client.rateLimit, { limit: 60, remaining: 0, reset: 1735689600 })
    const started = Date.now()
    t.match(await caught(client.pages.list()), { statusCode: 429, retryAfterSeconds: 3600 })
    t.ok(Date.now() - started < 1000, 'did not wait an hour')
    t.equal(seen.filter((s) => s.path === '/app-api/pages').length, 1)
  })

  t.test('keeps a path prefix of baseUrl', async (t) => {
    const seen: Seen[] = []
    const origin = await serve(t, cannedApi(seen))
    const client = createAppApiClient({ baseUrl: `${origin}/platform/`, accessToken: TOKEN })
    await caught(client.business.get())
    t.equal(seen[0].path, '/platform/app-api/business')
  })

  t.test('validates its options', async (t) => {
    t.throws(() => createAppApiClient({ baseUrl: 'http://127.0.0.1', accessToken: '' }), TypeError)
    t.throws(() => createAppApiClient({ baseUrl: 'http://127.0.0.1', accessToken: 't', maxRetries: -1 }), TypeError)
  })
})

t.test('paginate walks every page', async (t) => {
  const { seen, client } = await setup(t)
  const ids: string[] = []
  for await (const item of paginate(client.products.list, { limit: 3 })) ids.push(item.id)
  t.same(ids, ['prod_1', 'prod_2', 'prod_3', 'prod_4', 'prod_5', 'prod_6', 'prod_7'])
  t.same(seen.map((s) => s.query.page), ['1', '2', '3'], 'three pages, no extra request after the last')
  const fromTwo: string[] = []
  for await (const item of paginate(client.products.list, { limit: 5, page: 2 })) fromTwo.push(item.id)
  t.same(fromTwo, ['prod_6', 'prod_7'])
})

t.test('parseRetryAfter', async (t) => {
  t.equal(parseRetryAfter('5'), 5)
  t.equal(parseRetryAfter(null), null)
  t.equal(parseRetryAfter('soon'), null)
  const now = Date.parse('2025-01-01T00:00:00Z')
  t.equal(parseRetryAfter('Wed, 01 Jan 2025 00:00:30 GMT', now), 30)
  t.equal(parseRetryAfter('Tue, 31 Dec 2024 00:00:00 GMT', now), 0)
})
