import t from 'tap'
import { createHmac, timingSafeEqual } from 'node:crypto'
import { build, portsOf } from '../../helper.ts'
import { installApp, placeOrder, receiver, registerWebhook } from './helpers.ts'

/** The check a receiver would write, with node:crypto only (not the server's or the SDK's helper). */
function validSignature (secret: string, headers: Record<string, unknown>, body: string): boolean {
  const expected = 'sha256=' + createHmac('sha256', secret).update(`${String(headers['x-webhook-timestamp'])}.${body}`).digest('hex')
  const given = Buffer.from(String(headers['x-webhook-signature']))
  return given.length === expected.length && timingSafeEqual(given, Buffer.from(expected))
}

t.test('an order created reaches the receiver, signed, with every header', async (t) => {
  const app = await build(t)
  const sink = await receiver(t)
  const installed = await installApp(app)
  const webhook = await registerWebhook(app, installed, sink.url, ['order.created'])
  t.match(webhook.secret, /^whsec_/)

  const before = Math.floor(Date.now() / 1000)
  const order = await placeOrder(app, installed.businessId)
  const [got] = await sink.waitFor(1)
  const h = got.headers
  t.equal(h['x-webhook-id'], webhook.id)
  t.equal(h['x-webhook-event'], 'order.created')
  t.equal(h['user-agent'], 'Service-Webhooks/1.0')
  t.equal(h['content-type'], 'application/json')
  t.match(h['x-service-event-id'], /^dlv_/)
  t.match(h['x-webhook-signature'], /^sha256=[0-9a-f]{64}$/)
  const ts = Number(h['x-webhook-timestamp'])
  t.ok(ts >= before && ts <= Math.floor(Date.now() / 1000), 'timestamp is the send time in Unix seconds')
  t.ok(validSignature(webhook.secret, h, got.body), 'an independent HMAC check accepts the signature')
  t.notOk(validSignature('whsec_wrong', h, got.body))

  const body = JSON.parse(got.body)
  t.same(Object.keys(body).sort(), ['businessId', 'data', 'event', 'timestamp', 'webhookId'])
  t.equal(body.event, 'order.created')
  t.equal(body.webhookId, webhook.id)
  t.equal(body.businessId, installed.businessId)
  t.match(body.data, { orderId: order.id, orderNumber: order.orderNumber, amount: order.amount, deliveryMethod: 'PICKUP', paymentMethod: 'CASH', isGuest: true })

  await portsOf(app).webhooks.delivery.settled()
  const log = await app.inject({ method: 'GET', url: `/webhooks/${webhook.id}/deliveries`, headers: installed.auth })
  t.equal(log.statusCode, 200)
  const [delivery] = log.json().data
  t.match(delivery, { id: h['x-service-event-id'], event: 'order.created', status: 'SUCCEEDED', attemptCount: 1, lastStatusCode: 200 })
  t.match(delivery.attempts, [{ attempt: 1, statusCode: 200, error: null, responseSnippet: 'ok' }])
})

t.test('the app webhook from webhookUrl gets its events, signed with the installation secret', async (t) => {
  const app = await build(t)
  const sink = await receiver(t)
  const installed = await installApp(app, { webhookUrl: sink.url, webhookEvents: ['order.created', 'product.created'] })
  await placeOrder(app, installed.businessId)
  const [got] = await sink.waitFor(1)
  t.ok(validSignature(installed.webhookSecret, got.headers, got.body))
})

t.test('events outside the granted scopes or the subscription are not delivered', async (t) => {
  const app = await build(t)
  const sink = await receiver(t)
  const installed = await installApp(app, { scopes: ['read_orders'] })
  await registerWebhook(app, installed, sink.url, ['order.created'])
  const other = await installApp(app, { scopes: ['read_products'] })
  await registerWebhook(app, other, sink.url, ['product.created'])
  await placeOrder(app, installed.businessId)
  await sink.waitFor(1)
  await portsOf(app).webhooks.delivery.dispatch()
  await portsOf(app).webhooks.delivery.settled()
  t.equal(sink.received.length, 1, 'only the order.created of the first installation; the product.created of another business never reaches it')
  t.equal(sink.received[0].headers['x-webhook-event'], 'order.created')
})
