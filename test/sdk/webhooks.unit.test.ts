import { createHmac } from 'node:crypto'
import t from 'tap'
import {
  signWebhook, signedHeaders, verifyHookRequest, verifyWebhook, WebhookVerificationError,
  DEFAULT_TOLERANCE_SECONDS, SIGNATURE_HEADER, TIMESTAMP_HEADER
} from '../../sdk/src/webhooks.ts'

const SECRET = 'whsec_test_0123456789abcdef'
const NOW = new Date('2025-03-01T12:00:00Z')
const NOW_SECONDS = Math.floor(NOW.getTime() / 1000)

const envelope = {
  event: 'order.created',
  timestamp: NOW.toISOString(),
  webhookId: 'wh_1',
  businessId: 'biz_1',
  data: { orderId: 'ord_1', orderNumber: '1001', amount: 2500 }
}
const RAW = JSON.stringify(envelope)

/** The signature as the spec defines it, computed here without the SDK. */
function independentSignature (body: string, secret: string, timestamp: number): string {
  return 'sha256=' + createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')
}

function headersFor (body: string, { secret = SECRET, timestamp = NOW_SECONDS } = {}): Record<string, string> {
  return {
    'X-Webhook-Signature': independentSignature(body, secret, timestamp),
    'X-Webhook-Timestamp': String(timestamp),
    'X-Service-Event-Id': 'dlv_42'
  }
}

function reasonOf (fn: () => unknown): string {
  try {
    fn()
  } catch (error) {
    if (error instanceof WebhookVerificationError) return error.reason
    throw error
  }
  return 'no error'
}

t.test('verifyWebhook', async (t) => {
  t.test('accepts a signature computed independently with node:crypto', async (t) => {
    const event = verifyWebhook(RAW, headersFor(RAW), SECRET, { now: NOW })
    t.same(event, { ...envelope, eventId: 'dlv_42' })
  })

  t.test('accepts a Buffer body, a fetch Headers object and any header case', async (t) => {
    const headers = new Headers(headersFor(RAW))
    t.equal(verifyWebhook(Buffer.from(RAW), headers, SECRET, { now: NOW }).eventId, 'dlv_42')
    const shouting = Object.fromEntries(Object.entries(headersFor(RAW)).map(([k, v]) => [k.toUpperCase(), v]))
    t.equal(verifyWebhook(RAW, shouting, SECRET, { now: NOW }).webhookId, 'wh_1')
    t.equal(verifyWebhook(RAW, { ...headersFor(RAW), 'X-Webhook-Timestamp': [String(NOW_SECONDS)] }, SECRET, { now: NOW }).businessId, 'biz_1')
  })

  t.test('eventId is null without X-Service-Event-Id', async (t) => {
    const { 'X-Service-Event-Id': _ignored, ...headers } = headersFor(RAW)
    t.equal(verifyWebhook(RAW, headers, SECRET, { now: NOW }).eventId, null)
  })

  t.test('rejects a wrong secret', async (t) => {
    t.equal(reasonOf(() => verifyWebhook(RAW, headersFor(RAW, { secret: 'whsec_other' }), SECRET, { now: NOW })), 'bad_signature')
  })

  t.test('rejects a tampered body', async (t) => {
    const tampered = RAW.replace('2500', '1')
    t.equal(reasonOf(() => verifyWebhook(tampered, headersFor(RAW), SECRET, { now: NOW })), 'bad_signature')
  })

  t.test('rejects a signature made for another timestamp', async (t) => {
    const headers = { ...headersFor(RAW), 'X-Webhook-Timestamp': String(NOW_SECONDS - 1) }
    t.equal(reasonOf(() => verifyWebhook(RAW, headers, SECRET, { now: NOW })), 'bad_signature')
  })

  t.test('rejects missing headers', async (t) => {
    const { 'X-Webhook-Signature': _s, ...noSignature } = headersFor(RAW)
    const { 'X-Webhook-Timestamp': _t, ...noTimestamp } = headersFor(RAW)
    t.equal(reasonOf(() => verifyWebhook(RAW, noSignature, SECRET, { now: NOW })), 'missing_signature')
    t.equal(reasonOf(() => verifyWebhook(RAW, noTimestamp, SECRET, { now: NOW })), 'missing_timestamp')
    t.equal(reasonOf(() => verifyWebhook(RAW, { ...headersFor(RAW), 'X-Webhook-Signature': '' }, SECRET, { now: NOW })), 'missing_signature')
    t.equal(reasonOf(() => verifyWebhook(RAW, { ...headersFor(RAW), 'X-Webhook-Timestamp': 'yesterday' }, SECRET, { now: NOW })), 'missing_timestamp')
  })

  t.test('rejects a timestamp 5 min + 1 s old, and accepts exactly 5 min', async (t) => {
    const old = NOW_SECONDS - DEFAULT_TOLERANCE_SECONDS - 1
    t.equal(reasonOf(() => verifyWebhook(RAW, headersFor(RAW, { timestamp: old }), SECRET, { now: NOW })), 'stale_timestamp')
    const edge = NOW_SECONDS - DEFAULT_TOLERANCE_SECONDS
    t.equal(verifyWebhook(RAW, headersFor(RAW, { timestamp: edge }), SECRET, { now: NOW }).event, 'order.created')
  })

  t.test('rejects a timestamp too far in the future', async (t) => {
    const future = NOW_SECONDS + DEFAULT_TOLERANCE_SECONDS + 1
    t.equal(reasonOf(() => verifyWebhook(RAW, headersFor(RAW, { timestamp: future }), SECRET, { now: NOW })), 'stale_timestamp')
  })

  t.test('honours toleranceSeconds and uses the system clock by default', async (t) => {
    const tenMinutesAgo = NOW_SECONDS - 600
    t.equal(verifyWebhook(RAW, headersFor(RAW, { timestamp: tenMinutesAgo }), SECRET, { now: NOW, toleranceSeconds: 601 }).event, 'order.created')
    t.equal(reasonOf(() => verifyWebhook(RAW, headersFor(RAW), SECRET)), 'stale_timestamp')
    const current = Math.floor(Date.now() / 1000)
    t.equal(verifyWebhook(RAW, headersFor(RAW, { timestamp: current }), SECRET).event, 'order.created')
    t.throws(() => verifyWebhook(RAW, headersFor(RAW), SECRET, { toleranceSeconds: -1 }), TypeError)
  })

  t.test('rejects malformed sha256= values and other lengths without throwing from timingSafeEqual', async (t) => {
    const good = independentSignature(RAW, SECRET, NOW_SECONDS)
    const hex = good.slice('sha256='.length)
    const values = [
      'sha256=', 'sha256=abcd', `sha256=${hex}00`, `sha256=${hex.slice(0, 63)}`, `sha256=${hex.slice(0, 63)}z`,
      hex, `sha1=${hex}`, `SHA256 ${hex}`, `sha256=${'é'.repeat(32)}`, `sha256=${hex},sha256=${hex}`
    ]
    for (const value of values) {
      t.equal(reasonOf(() => verifyWebhook(RAW, { ...headersFor(RAW), 'X-Webhook-Signature': value }, SECRET, { now: NOW })), 'bad_signature', value)
    }
  })

  t.test('rejects a correctly signed body that is not an envelope', async (t) => {
    for (const body of ['not json', '[1,2]', '"text"', JSON.stringify({ ...envelope, data: 'x' }), JSON.stringify({ ...envelope, event: 7 })]) {
      t.equal(reasonOf(() => verifyWebhook(body, headersFor(body), SECRET, { now: NOW })), 'malformed_body', body)
    }
  })

  t.test('needs a secret', async (t) => {
    t.throws(() => verifyWebhook(RAW, headersFor(RAW), ''), TypeError)
  })
})

t.test('signWebhook and signedHeaders', async (t) => {
  t.equal(signWebhook(RAW, SECRET, NOW_SECONDS), independentSignature(RAW, SECRET, NOW_SECONDS))
  t.equal(signWebhook(Buffer.from(RAW), SECRET, String(NOW_SECONDS)), independentSignature(RAW, SECRET, NOW_SECONDS))
  const headers = signedHeaders(RAW, SECRET, NOW_SECONDS)
  t.equal(headers[SIGNATURE_HEADER], independentSignature(RAW, SECRET, NOW_SECONDS))
  t.equal(headers[TIMESTAMP_HEADER], String(NOW_SECONDS))
  t.equal(verifyWebhook(RAW, signedHeaders(RAW, SECRET), SECRET).event, 'order.created')
})

t.test('verifyHookRequest', async (t) => {
  const hook = { hookPoint: 'order.validate', businessId: 'biz_1', timestamp: NOW.toISOString(), data: { items: [], subtotal: 0, deliveryMethod: 'PICKUP' } }
  const raw = JSON.stringify(hook)

  t.test('returns the hook envelope of a signed call', async (t) => {
    t.same(verifyHookRequest(raw, headersFor(raw), SECRET, { now: NOW }), hook)
  })

  t.test('rejects what verifyWebhook rejects', async (t) => {
    t.equal(reasonOf(() => verifyHookRequest(raw, headersFor(raw, { secret: 'whsec_x' }), SECRET, { now: NOW })), 'bad_signature')
    t.equal(reasonOf(() => verifyHookRequest(raw, headersFor(raw, { timestamp: NOW_SECONDS - 301 }), SECRET, { now: NOW })), 'stale_timestamp')
    t.equal(reasonOf(() => verifyHookRequest(RAW, headersFor(RAW), SECRET, { now: NOW })), 'malformed_body')
  })
})
