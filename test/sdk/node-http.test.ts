import t from 'tap'
import { hookHandler, webhookHandler } from '../../sdk/src/node-http.ts'
import { DeliveryDeduper } from '../../sdk/src/dedupe.ts'
import type { WebhookEvent } from '../../sdk/src/webhooks.ts'
import { signWebhook } from '../../sdk/src/webhooks.ts'
import { serve } from './http-server.ts'
import { gate } from '../wait.ts'

const SECRET = 'whsec_0123456789abcdef0123456789abcdef'

function envelope (event = 'order.created'): string {
  return JSON.stringify({ event, timestamp: new Date().toISOString(), webhookId: 'wh_1', businessId: 'biz_1', data: { orderId: 'ord_1' } })
}

async function deliver (url: string, body: string, { secret = SECRET, eventId = 'dlv_1', timestamp = Math.floor(Date.now() / 1000) } = {}) {
  const response = await fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'x-webhook-signature': signWebhook(body, secret, timestamp),
      'x-webhook-timestamp': String(timestamp),
      'x-service-event-id': eventId,
      'user-agent': 'Service-Webhooks/1.0'
    },
    body
  })
  return { status: response.status, body: await response.json() as Record<string, unknown> }
}

t.test('webhookHandler (node:http, real HTTP)', async (t) => {
  t.test('answers 401 on a bad signature and does not call onEvent', async (t) => {
    const events: WebhookEvent[] = []
    const url = await serve(t, webhookHandler(SECRET, (event) => { events.push(event) }))
    const response = await deliver(url, envelope(), { secret: 'whsec_wrong' })
    t.equal(response.status, 401)
    t.match(response.body, { statusCode: 401, error: 'Unauthorized' })
    t.equal(events.length, 0)
  })

  t.test('answers 401 on a stale timestamp and on missing headers', async (t) => {
    const url = await serve(t, webhookHandler(SECRET, () => { t.fail('onEvent must not run') }))
    const stale = await deliver(url, envelope(), { timestamp: Math.floor(Date.now() / 1000) - 301 })
    t.equal(stale.status, 401)
    const bare = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: envelope() })
    t.equal(bare.status, 401)
  })

  t.test('answers 200 and calls onEvent once for a good delivery', async (t) => {
    const events: WebhookEvent[] = []
    const url = await serve(t, webhookHandler(SECRET, async (event) => { events.push(event) }))
    const response = await deliver(url, envelope(), { eventId: 'dlv_good' })
    t.equal(response.status, 200)
    t.same(response.body, { received: true, duplicate: false })
    t.equal(events.length, 1)
    t.match(events[0], { event: 'order.created', businessId: 'biz_1', eventId: 'dlv_good', data: { orderId: 'ord_1' } })
  })

  t.test('dedupes a retry with the same X-Service-Event-Id', async (t) => {
    let calls = 0
    const url = await serve(t, webhookHandler(SECRET, () => { calls += 1 }))
    t.equal((await deliver(url, envelope(), { eventId: 'dlv_retry' })).status, 200)
    // A retry is re-signed with a new timestamp but keeps its delivery id.
    const retry = await deliver(url, envelope(), { eventId: 'dlv_retry', timestamp: Math.floor(Date.now() / 1000) + 1 })
    t.equal(retry.status, 200)
    t.same(retry.body, { received: true, duplicate: true })
    t.equal(calls, 1)
    t.equal((await deliver(url, envelope(), { eventId: 'dlv_other' })).status, 200)
    t.equal(calls, 2)
  })

  t.test('a duplicate arriving while the first copy runs waits for it and is not run twice', async (t) => {
    let calls = 0
    const held = gate()
    const url = await serve(t, webhookHandler(SECRET, async () => { calls += 1; await held.opened }))
    const first = deliver(url, envelope(), { eventId: 'dlv_parallel' })
    const second = deliver(url, envelope(), { eventId: 'dlv_parallel' })
    setTimeout(held.open, 50)
    const answers = await Promise.all([first, second])
    t.same(answers.map((a) => a.status), [200, 200])
    t.same(answers.map((a) => a.body.duplicate).sort(), [false, true])
    t.equal(calls, 1)
  })

  t.test('answers 500 when onEvent throws, and handles the retry again', async (t) => {
    let calls = 0
    const errors: unknown[] = []
    const url = await serve(t, webhookHandler(SECRET, () => {
      calls += 1
      if (calls === 1) throw new Error('database down')
    }, { onError: (error) => errors.push(error) }))
    const failed = await deliver(url, envelope(), { eventId: 'dlv_flaky' })
    t.equal(failed.status, 500)
    t.notMatch(JSON.stringify(failed.body), /database down/)
    t.equal(errors.length, 1)
    t.equal((await deliver(url, envelope(), { eventId: 'dlv_flaky' })).status, 200)
    t.equal(calls, 2)
  })

  t.test('dedupe is configurable: off, or a bounded LRU', async (t) => {
    let calls = 0
    const off = await serve(t, webhookHandler(SECRET, () => { calls += 1 }, { dedupe: false }))
    await deliver(off, envelope(), { eventId: 'dlv_same' })
    await deliver(off, envelope(), { eventId: 'dlv_same' })
    t.equal(calls, 2)

    calls = 0
    const small = await serve(t, webhookHandler(SECRET, () => { calls += 1 }, { dedupe: new DeliveryDeduper(2) }))
    for (const id of ['a', 'b', 'c', 'a']) await deliver(small, envelope(), { eventId: id })
    t.equal(calls, 4, 'a was evicted by c, so its retry runs again')
  })

  t.test('answers 400 for a signed body that is not an envelope, 405 for GET, 413 for a huge body', async (t) => {
    const url = await serve(t, webhookHandler(SECRET, () => {}, { maxBodyBytes: 1024 }))
    t.equal((await deliver(url, '{"hello":"world"}')).status, 400)
    const get = await fetch(url)
    t.equal(get.status, 405)
    t.equal(get.headers.get('allow'), 'POST')
    const huge = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: 'x'.repeat(4096) })
    t.equal(huge.status, 413)
  })
})

t.test('webhookHandler answers 500 instead of hanging when misconfigured', async (t) => {
  const url = await serve(t, webhookHandler(SECRET, () => {}, { toleranceSeconds: -1 }))
  const response = await deliver(url, envelope())
  t.equal(response.status, 500)
})

t.test('DeliveryDeduper', async (t) => {
  t.throws(() => new DeliveryDeduper(0), TypeError)
  const deduper = new DeliveryDeduper(2)
  t.equal(await deduper.run('x', () => {}), true)
  t.equal(await deduper.run('x', () => {}), false)
  t.equal(await deduper.run(null, () => {}), true, 'no id: always runs')
  t.equal(await deduper.run(null, () => {}), true)
})

t.test('hookHandler (node:http, real HTTP)', async (t) => {
  const url = await serve(t, hookHandler(SECRET, (request) => {
    if (request.hookPoint !== 'order.validate') throw new Error('unexpected hook point')
    const { subtotal } = request.data as { subtotal: number }
    return subtotal >= 1000 ? { valid: true } : { valid: false, reason: 'Minimum order is 10.00' }
  }))
  const call = async (subtotal: number, secret = SECRET) => {
    const body = JSON.stringify({ hookPoint: 'order.validate', businessId: 'biz_1', timestamp: new Date().toISOString(), data: { items: [], subtotal, deliveryMethod: 'PICKUP' } })
    const timestamp = Math.floor(Date.now() / 1000)
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-webhook-signature': signWebhook(body, secret, timestamp), 'x-webhook-timestamp': String(timestamp) },
      body
    })
    return { status: response.status, body: await response.json() }
  }
  t.same(await call(1500), { status: 200, body: { valid: true } })
  t.same(await call(500), { status: 200, body: { valid: false, reason: 'Minimum order is 10.00' } })
  t.equal((await call(1500, 'whsec_wrong')).status, 401)
})
