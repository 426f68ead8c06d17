import t from 'tap'
import { build, registerUser, REVIEWER_ENV, portsOf } from '../helper.ts'
import { installApp, placeOrder, receiver, registerWebhook } from '../plugins/webhooks/helpers.ts'
import { cart, installHookApp, shop, startAppServer } from '../plugins/checkout-hooks/fixtures.ts'

const TOKEN = 'metrics-token-0123456789'
const ELSEWHERE = '203.0.113.7'

/** The value of one series in the Prometheus text format (the labels as written, in order), or undefined. */
function sample (text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  const wanted = Object.entries(labels).map(([key, value]) => `${key}="${value}"`)
  for (const line of text.split('\n')) {
    if (!line.startsWith(`${name}{`) && !line.startsWith(`${name} `)) continue
    const inside = line.slice(name.length).match(/^\{([^}]*)\}/)?.[1] ?? ''
    const present = inside === '' ? [] : inside.split(',')
    if (wanted.every((label) => present.includes(label))) return Number(line.slice(line.lastIndexOf(' ') + 1))
  }
  return undefined
}

t.test('GET /metrics: who may read it', async (t) => {
  const app = await build(t, { env: { METRICS_TOKEN: TOKEN } })

  const local = await app.inject({ url: '/metrics' })
  t.equal(local.statusCode, 200, 'loopback needs no token')
  t.match(local.headers['content-type'], /^text\/plain; version=0\.0\.4/)

  const anonymous = await app.inject({ url: '/metrics', remoteAddress: ELSEWHERE })
  t.equal(anonymous.statusCode, 401)
  t.match(anonymous.json(), { statusCode: 401, error: 'Unauthorized', message: /bearer/ }, 'the error format')
  t.match(anonymous.headers['www-authenticate'], /^Bearer realm="metrics"/)

  const wrong = await app.inject({ url: '/metrics', remoteAddress: ELSEWHERE, headers: { authorization: `Bearer ${TOKEN}x` } })
  t.equal(wrong.statusCode, 401, 'a wrong token')
  const right = await app.inject({ url: '/metrics', remoteAddress: ELSEWHERE, headers: { authorization: `Bearer ${TOKEN}` } })
  t.equal(right.statusCode, 200, 'the token from another host')

  const proxied = await app.inject({ url: '/metrics', headers: { 'x-forwarded-for': ELSEWHERE } })
  t.equal(proxied.statusCode, 401, 'a request a local proxy forwarded is not loopback')

  const open = await build(t)
  const refused = await open.inject({ url: '/metrics', remoteAddress: ELSEWHERE, headers: { authorization: `Bearer ${TOKEN}` } })
  t.equal(refused.statusCode, 403, 'without METRICS_TOKEN other hosts are refused whatever they send')
  t.match(refused.json(), { statusCode: 403, message: /METRICS_TOKEN/ })
})

t.test('GET /metrics: requests by route pattern, deliveries, hook calls, queues, process', async (t) => {
  const app = await build(t, { env: { ...REVIEWER_ENV, RATE_LIMIT_PER_MINUTE: '2' } })

  // a webhook registered (one of the installation's two requests a minute), then delivered
  const installed = await installApp(app)
  const target = await receiver(t)
  await registerWebhook(app, installed, target.url)
  // App API traffic: one answered, the next refused by the rate limit
  for (let i = 0; i < 2; i++) await app.inject({ url: '/app-api/products?page=1', headers: installed.auth })
  // an unknown URL under an API root (elsewhere a GET is the SPA's page, once the admin UI is built)
  await app.inject({ url: '/auth/no-such-route-4711' })
  await placeOrder(app, installed.businessId)
  await target.waitFor(1)
  await portsOf(app).webhooks.delivery.idle()

  // a checkout hook called through a storefront quote
  const developer = await registerUser(app, 'DEVELOPER')
  const { merchant, slug, pizza, soda } = await shop(app)
  const appServer = await startAppServer(t, { '/base/rates': () => ({ json: { fee: 450 } }) })
  await installHookApp(app, developer, merchant, appServer.url, [{ hookPoint: 'checkout.shipping_rates', url: '/rates' }], ['write_shipping'])
  const quote = await app.storefront.inject({ method: 'POST', url: `/store/${slug}/api/checkout/quote`, payload: cart(pizza.id, soda.id) })
  t.match(quote.json(), { deliveryFee: 450 })

  // a job nobody works on waits in its queue
  await app.jobs.send('metrics-test.waiting', { n: 1 })

  const text = (await app.inject({ url: '/metrics' })).body
  const products = { method: 'GET', route: '/app-api/products', status_class: '2xx' }
  t.equal(sample(text, 'http_requests_total', products), 1, 'requests by route pattern and status class')
  t.equal(sample(text, 'http_request_duration_seconds_count', products), 1, 'with a latency histogram')
  t.equal(sample(text, 'http_request_duration_seconds_bucket', { ...products, le: '+Inf' }), 1)
  t.equal(sample(text, 'rate_limit_refusals_total', { route: '/app-api/products' }), 1, 'the refusal')
  t.equal(sample(text, 'http_requests_total', { route: '(unmatched)', status_class: '4xx' }), 1, 'an unknown URL shares one label')
  t.notMatch(text, /no-such-route/, 'never the raw URL')

  t.equal(sample(text, 'webhook_delivery_attempts_total', { outcome: 'succeeded' }), 1, 'the delivery, by outcome')
  t.equal(sample(text, 'webhook_delivery_attempt_duration_seconds_count', { outcome: 'succeeded' }), 1, 'and its latency')
  t.equal(sample(text, 'hook_calls_total', { hook_point: 'checkout.shipping_rates', outcome: 'succeeded' }), 1, 'the hook call, by point and outcome')
  t.equal(sample(text, 'hook_call_duration_seconds_count', { hook_point: 'checkout.shipping_rates', outcome: 'succeeded' }), 1, 'and its latency')

  t.equal(sample(text, 'job_queue_depth', { queue: 'metrics-test.waiting', state: 'created' }), 1, 'pg-boss queue depth')
  t.equal(sample(text, 'platform_process_info', { role: 'all' }), 1, 'the process role')
  t.ok((sample(text, 'process_resident_memory_bytes') ?? 0) > 0, 'process memory')
  t.ok(sample(text, 'nodejs_eventloop_lag_p99_seconds') !== undefined, 'event-loop delay')
  if (app.database.kind === 'postgres') {
    t.equal(sample(text, 'db_pool_max_connections'), app.config.databasePoolSize, 'the pool size')
    t.ok(sample(text, 'db_pool_connections', { state: 'idle' }) !== undefined, 'pool connections in use and idle')
    t.equal(sample(text, 'db_pool_waiting_clients'), 0, 'nobody waiting')
  }
})

t.test('GET /metrics: every sample is a number, and the embedded database shows its queue', async (t) => {
  const app = await build(t)
  // two scrapes at once: the second finds the event-loop histogram just reset, with no samples yet
  const texts = await Promise.all([app.metrics.text(), app.metrics.text()])
  for (const text of texts) {
    const samples = text.split('\n').filter((line) => line !== '' && !line.startsWith('#'))
    t.same(samples.filter((line) => !/ (?:-?\d+(?:\.\d+)?(?:e[-+]?\d+)?|[-+]Inf)$/.test(line)), [], 'no sample without a number (prom-client printed "Nan")')
  }

  if (app.database.kind !== 'pglite') return
  const pending = Array.from({ length: 5 }, async () => await app.database.executeSql('select 1'))
  const busy = await app.metrics.text()
  await Promise.all(pending)
  t.ok((sample(busy, 'db_embedded_statements', { state: 'waiting' }) ?? 0) >= 4, 'five statements at once: four wait for the one connection')
  t.equal(sample(busy, 'db_embedded_statements', { state: 'active' }), 1)
  t.equal(sample(await app.metrics.text(), 'db_embedded_statements', { state: 'active' }) !== undefined, true, 'the gauge stays when the queue is empty')
})
