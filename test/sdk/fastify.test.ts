import Fastify from 'fastify'
import type { AddressInfo } from 'node:net'
import t, { type Test } from 'tap'
import { hookPlugin, webhookPlugin } from '../../sdk/src/fastify.ts'
import { signWebhook, type WebhookEvent } from '../../sdk/src/webhooks.ts'

const SECRET = 'whsec_fastify_0123456789abcdef'

async function start (t: Test, events: WebhookEvent[]) {
  const app = Fastify({ logger: false })
  // The app's own JSON routes keep fastify's JSON parser: the plugin's raw parser is encapsulated.
  app.post('/echo', async (request) => request.body)
  await app.register(webhookPlugin({ secret: SECRET, onEvent: (event) => { events.push(event) } }), { prefix: '/webhooks' })
  await app.register(hookPlugin({
    secret: SECRET,
    path: '/shipping',
    onHook: (request) => ({ fee: (request.data as { subtotal: number }).subtotal > 5000 ? 0 : 499 })
  }), { prefix: '/hooks' })
  t.teardown(() => app.close())
  await app.listen({ port: 0, host: '127.0.0.1' })
  const { port } = app.server.address() as AddressInfo
  return `http://127.0.0.1:${port}`
}

function signed (body: string, { secret = SECRET, eventId = 'dlv_1' } = {}): Record<string, string> {
  const timestamp = Math.floor(Date.now() / 1000)
  return {
    'content-type': 'application/json; charset=utf-8',
    'x-webhook-signature': signWebhook(body, secret, timestamp),
    'x-webhook-timestamp': String(timestamp),
    'x-service-event-id': eventId
  }
}

// Keys in an unusual order and spacing: re-serialising the parsed JSON would break the signature.
const BODY = '{ "data": {"orderId":"ord_9"}, "event":"order.cancelled", "webhookId":"wh_2", "businessId":"biz_2", "timestamp":"2025-03-01T12:00:00.000Z" }'

t.test('webhookPlugin (fastify, real HTTP)', async (t) => {
  const events: WebhookEvent[] = []
  const url = await start(t, events)

  t.test('verifies the raw body and calls onEvent once per delivery id', async (t) => {
    const first = await fetch(`${url}/webhooks`, { method: 'POST', headers: signed(BODY, { eventId: 'dlv_f1' }), body: BODY })
    t.equal(first.status, 200)
    t.same(await first.json(), { received: true, duplicate: false })
    const retry = await fetch(`${url}/webhooks`, { method: 'POST', headers: signed(BODY, { eventId: 'dlv_f1' }), body: BODY })
    t.same(await retry.json(), { received: true, duplicate: true })
    t.equal(events.length, 1)
    t.match(events[0], { event: 'order.cancelled', businessId: 'biz_2', eventId: 'dlv_f1', data: { orderId: 'ord_9' } })
  })

  t.test('answers 401 on a bad signature', async (t) => {
    const response = await fetch(`${url}/webhooks`, { method: 'POST', headers: signed(BODY, { secret: 'whsec_other', eventId: 'dlv_f2' }), body: BODY })
    t.equal(response.status, 401)
    t.match(await response.json(), { statusCode: 401, error: 'Unauthorized' })
    t.equal(events.length, 1)
  })

  t.test('leaves the rest of the app on fastify\'s JSON parser', async (t) => {
    const response = await fetch(`${url}/echo`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"a":1}' })
    t.same(await response.json(), { a: 1 })
  })
})

t.test('hookPlugin (fastify, real HTTP) answers with the hook\'s JSON', async (t) => {
  const url = await start(t, [])
  const body = JSON.stringify({ hookPoint: 'checkout.shipping_rates', businessId: 'biz_1', timestamp: new Date().toISOString(), data: { deliveryMethod: 'DELIVERY', subtotal: 1200, builtInFee: 300 } })
  const response = await fetch(`${url}/hooks/shipping`, { method: 'POST', headers: signed(body), body })
  t.equal(response.status, 200)
  t.same(await response.json(), { fee: 499 })
  const forged = await fetch(`${url}/hooks/shipping`, { method: 'POST', headers: signed(body, { secret: 'whsec_x' }), body })
  t.equal(forged.status, 401)
})
