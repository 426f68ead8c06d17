import t from 'tap'
import { Webhook } from 'standardwebhooks'
import { verifyWebhook, WebhookVerificationError } from '../../sdk/src/webhooks.ts'
import { signature, signatureHeaders, signJwtHs256, standardWebhooksKey, standardWebhooksSignature, unixSeconds } from '../../server/signing.ts'

// The platform's signatures, checked by the SDK's verifier and by the standardwebhooks package, with no
// server in between (the deliveries themselves: test/plugins/webhooks/).
const secret = `whsec_${Buffer.from('a 32-byte signing key for tests!').toString('base64')}`
const rawBody = JSON.stringify({ event: 'order.created', timestamp: '2026-11-28T10:00:00.000Z', webhookId: 'wh_1', businessId: 'biz_1', data: { id: 'ord_1' } })
const now = new Date('2026-11-28T10:00:05.000Z')
const timestamp = unixSeconds(now)

/** The reason the SDK's verifier gives for refusing, or null when it accepts. */
function refusal (verify: () => unknown): string | null {
  try {
    verify()
    return null
  } catch (error) {
    if (error instanceof WebhookVerificationError) return error.reason
    throw error
  }
}

t.test('spec signature: sha256= and the hex HMAC of "<timestamp>.<body>"', async (t) => {
  t.match(signature(secret, timestamp, rawBody), /^sha256=[0-9a-f]{64}$/)
  t.not(signature(secret, timestamp, rawBody), signature(secret, timestamp + 1, rawBody), 'the timestamp is signed')
  const headers = signatureHeaders('spec', { secret, id: 'dlv_1', timestamp, rawBody })
  t.same(Object.keys(headers).sort(), ['x-webhook-signature', 'x-webhook-timestamp'])
  t.equal(verifyWebhook(rawBody, headers, secret, { now }).event, 'order.created', 'the SDK verifies it')
  t.equal(refusal(() => verifyWebhook(rawBody.replace('ord_1', 'ord_2'), headers, secret, { now })), 'bad_signature', 'a changed body fails')
  t.equal(refusal(() => verifyWebhook(rawBody, headers, 'whsec_another', { now })), 'bad_signature', 'another secret fails')
  t.equal(refusal(() => verifyWebhook(rawBody, headers, secret, { now: new Date(now.getTime() + 301_000) })), 'stale_timestamp', 'too late fails')
})

t.test('Standard Webhooks: v1, base64 HMAC of "<id>.<timestamp>.<body>" under the base64 key', async (t) => {
  const headers = signatureHeaders('standard-webhooks', { secret, id: 'dlv_1', timestamp, rawBody })
  t.match(headers, { 'webhook-id': 'dlv_1', 'webhook-timestamp': String(timestamp), 'webhook-signature': /^v1,[A-Za-z0-9+/]{43}=$/ })
  t.same(standardWebhooksKey(secret), Buffer.from('a 32-byte signing key for tests!'))
  t.same(standardWebhooksKey(secret.replace('whsec_', 'whsec_test_')), standardWebhooksKey(secret), 'a test install\'s prefix is the marker too')
  t.equal(verifyWebhook(rawBody, headers, secret, { now }).eventId, 'dlv_1', 'the SDK verifies it, with the id as the event id')
  t.not(standardWebhooksSignature(secret, 'dlv_2', timestamp, rawBody), headers['webhook-signature'], 'the id is signed')

  // the reference implementation checks the timestamp against its own clock: sign for the present
  const fresh = Math.floor(Date.now() / 1000)
  const current = signatureHeaders('standard-webhooks', { secret, id: 'dlv_1', timestamp: fresh, rawBody })
  t.same(new Webhook(secret).verify(rawBody, current), JSON.parse(rawBody), 'the standardwebhooks package verifies it with the secret as given')
  t.throws(() => new Webhook(secret).verify(rawBody + ' ', current), /No matching signature/)
})

t.test('HS256 JWT: base64url header, claims and signature', async (t) => {
  const token = signJwtHs256({ sub: 'usr_1', exp: 2 }, 'key')
  const [header, claims, mac] = token.split('.')
  t.same(JSON.parse(Buffer.from(header, 'base64url').toString()), { alg: 'HS256', typ: 'JWT' })
  t.same(JSON.parse(Buffer.from(claims, 'base64url').toString()), { sub: 'usr_1', exp: 2 })
  t.match(mac, /^[A-Za-z0-9_-]{43}$/, 'no padding')
  t.not(signJwtHs256({ sub: 'usr_1', exp: 2 }, 'other'), token)
  t.equal(unixSeconds(new Date(1999)), 1, 'whole seconds, rounded down')
})
