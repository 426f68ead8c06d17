import t from 'tap'
import { build, portsOf } from '../../helper.ts'
import { installApp, placeOrder, receiver, registerWebhook } from './helpers.ts'

t.test('webhook management', async (t) => {
  const app = await build(t)
  const installed = await installApp(app, { scopes: ['read_orders'] })
  const sink = await receiver(t)

  t.test('POST /webhooks: unknown event 400, unscoped event 403 naming the scope, no token 401', async (t) => {
    const unknown = await app.inject({ method: 'POST', url: '/webhooks', headers: installed.auth, payload: { url: sink.url, events: ['order.exploded'] } })
    t.equal(unknown.statusCode, 400)
    t.match(unknown.json().message, /order\.exploded/)
    const unscoped = await app.inject({ method: 'POST', url: '/webhooks', headers: installed.auth, payload: { url: sink.url, events: ['product.created'] } })
    t.equal(unscoped.statusCode, 403)
    t.match(unscoped.json().message, /read_products/)
    t.equal((await app.inject({ method: 'POST', url: '/webhooks', payload: { url: sink.url, events: ['order.created'] } })).statusCode, 401)
    const extra = await app.inject({ method: 'POST', url: '/webhooks', headers: installed.auth, payload: { url: sink.url, events: ['order.created'], secret: 'mine' } })
    t.equal(extra.statusCode, 400)
    const bad = await app.inject({ method: 'POST', url: '/webhooks', headers: installed.auth, payload: { url: 'not a url', events: ['order.created'] } })
    t.equal(bad.statusCode, 400)
  })

  t.test('create, list (no secrets), get, patch, delete; another installation gets 404', async (t) => {
    const created = await app.inject({ method: 'POST', url: '/webhooks', headers: installed.auth, payload: { url: sink.url, events: ['order.created', 'order.cancelled'], description: 'orders' } })
    t.equal(created.statusCode, 201)
    const body = created.json()
    t.match(body, { url: sink.url, events: ['order.created', 'order.cancelled'], description: 'orders', isActive: true, secret: /^whsec_test_/ })
    const list = await app.inject({ method: 'GET', url: '/webhooks', headers: installed.auth })
    t.equal(list.statusCode, 200)
    t.notMatch(list.body, /whsec_/, 'no secret in the list')
    t.ok(list.json().data.some((w: any) => w.id === body.id))

    const other = await installApp(app)
    for (const [method, url] of [['GET', `/webhooks/${body.id}`], ['PATCH', `/webhooks/${body.id}`], ['DELETE', `/webhooks/${body.id}`], ['POST', `/webhooks/${body.id}/test`], ['GET', `/webhooks/${body.id}/deliveries`]] as const) {
      const response = await app.inject({ method, url, headers: other.auth, ...(method === 'PATCH' ? { payload: { description: 'x' } } : {}) })
      t.equal(response.statusCode, 404, `${method} ${url} from another installation`)
    }
    const patched = await app.inject({ method: 'PATCH', url: `/webhooks/${body.id}`, headers: installed.auth, payload: { events: ['order.delivered'], isActive: false } })
    t.match(patched.json(), { events: ['order.delivered'], isActive: false, disabledReason: 'Disabled by the app' })
    t.equal((await app.inject({ method: 'PATCH', url: `/webhooks/${body.id}`, headers: installed.auth, payload: { events: ['review.created'] } })).statusCode, 403)
    t.equal((await app.inject({ method: 'PATCH', url: `/webhooks/${body.id}`, headers: installed.auth, payload: {} })).statusCode, 400)
    t.equal((await app.inject({ method: 'DELETE', url: `/webhooks/${body.id}`, headers: installed.auth })).statusCode, 204)
    t.equal((await app.inject({ method: 'GET', url: `/webhooks/${body.id}`, headers: installed.auth })).statusCode, 404)
  })

  t.test('POST /webhooks/:id/test sends webhook.test and reports the outcome', async (t) => {
    const webhook = await registerWebhook(app, installed, sink.url)
    const ok = await app.inject({ method: 'POST', url: `/webhooks/${webhook.id}/test`, headers: installed.auth })
    t.equal(ok.statusCode, 200)
    t.match(ok.json(), { success: true, statusCode: 200, durationMs: Number })
    t.notOk('error' in ok.json())
    const last = sink.received[sink.received.length - 1]
    t.equal(last.headers['x-webhook-event'], 'webhook.test')
    t.match(JSON.parse(last.body), { event: 'webhook.test', data: { webhookId: webhook.id, message: String } })

    const failing = await receiver(t, () => ({ status: 500 }))
    const down = await registerWebhook(app, installed, failing.url)
    const failed = await app.inject({ method: 'POST', url: `/webhooks/${down.id}/test`, headers: installed.auth })
    t.match(failed.json(), { success: false, statusCode: 500, error: 'HTTP 500' })
    const closed = await registerWebhook(app, installed, 'http://127.0.0.1:1/nothing')
    const refused = await app.inject({ method: 'POST', url: `/webhooks/${closed.id}/test`, headers: installed.auth })
    t.match(refused.json(), { success: false, statusCode: null, error: /ECONNREFUSED/ })
    await portsOf(app).webhooks.delivery.idle()
    t.equal(failing.received.length, 1, 'a test is never retried')
    const logged = await app.inject({ method: 'GET', url: `/webhooks/${down.id}/deliveries`, headers: installed.auth })
    t.match(logged.json(), { total: 1, data: [{ event: 'webhook.test', status: 'FAILED' }] }, 'logged as failed, nothing left pending to retry')
  })

  t.test('redeliver and replay keep the event id', async (t) => {
    const target = await receiver(t)
    const webhook = await registerWebhook(app, installed, target.url)
    await placeOrder(app, installed.businessId)
    await placeOrder(app, installed.businessId)
    const [first] = await target.waitFor(2)
    await portsOf(app).webhooks.delivery.settled()
    const deliveryId = String(first.headers['x-service-event-id'])
    const redelivered = await app.inject({ method: 'POST', url: `/webhooks/${webhook.id}/deliveries/${deliveryId}/redeliver`, headers: installed.auth })
    t.equal(redelivered.statusCode, 202)
    t.same(redelivered.json(), { deliveryId, status: 'PENDING' })
    const got = await target.waitFor(3)
    t.equal(got[2].headers['x-service-event-id'], deliveryId)
    t.equal((await app.inject({ method: 'POST', url: `/webhooks/${webhook.id}/deliveries/dlv_nope/redeliver`, headers: installed.auth })).statusCode, 404)

    await portsOf(app).webhooks.delivery.settled()
    const replayed = await app.inject({ method: 'POST', url: `/webhooks/${webhook.id}/replay`, headers: installed.auth, payload: { since: new Date(Date.now() - 60_000).toISOString(), status: 'SUCCEEDED' } })
    t.equal(replayed.statusCode, 202)
    t.same(replayed.json(), { queued: 2, remaining: 0, remainingExact: true, nextSince: null })
    const all = await target.waitFor(5)
    t.same(new Set(all.slice(3).map((r) => r.headers['x-service-event-id'])), new Set(all.slice(0, 2).map((r) => r.headers['x-service-event-id'])))
    t.equal((await app.inject({ method: 'POST', url: `/webhooks/${webhook.id}/replay`, headers: installed.auth, payload: { since: 'yesterday' } })).statusCode, 400)
  })
})

t.test('production mode refuses http: and private targets', async (t) => {
  const app = await build(t, { env: { PLATFORM_ENV: 'production' } })
  // a public address literal: this machine has no DNS
  const installed = await installApp(app, { webhookUrl: 'https://93.184.215.14/webhooks' })
  for (const url of ['http://example.com/hook', 'https://127.0.0.1/hook', 'https://10.1.2.3/hook', 'https://localhost/hook', 'https://[::1]/hook']) {
    const response = await app.inject({ method: 'POST', url: '/webhooks', headers: installed.auth, payload: { url, events: ['order.created'] } })
    t.equal(response.statusCode, 400, url)
  }
  const accepted = await app.inject({ method: 'POST', url: '/webhooks', headers: installed.auth, payload: { url: 'https://93.184.215.14/hook', events: ['order.created'] } })
  t.equal(accepted.statusCode, 201, 'https to a public address')
})
