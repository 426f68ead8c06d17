import t from 'tap'
import { verifySessionToken, SessionTokenError } from '../../sdk/src/index.ts'
import { signJwtHs256 } from '../../server/signing.ts'

const secret = 'whsec_test_secret'
const clientId = '0123456789abcdef0123456789abcdef'
const now = Date.UTC(2026, 0, 1, 12) / 1000
const claims = { iss: 'https://admin.example', aud: clientId, sub: 'usr_1', businessId: 'biz_1', installationId: 'inst_1', iat: now, exp: now + 300, jti: 'a-b-c' }
const options = { secret, clientId, now: now * 1000 }

t.test('verifySessionToken', async (t) => {
  t.test('a good token gives its claims', async (t) => {
    t.same(verifySessionToken(signJwtHs256(claims, secret), options), claims)
    t.same(verifySessionToken(signJwtHs256(claims, secret), { ...options, issuer: 'https://admin.example/' }), claims, 'with the expected issuer')
  })

  const refused = (name: string, token: string, message: RegExp, extra: Record<string, unknown> = {}) =>
    t.throws(() => verifySessionToken(token, { ...options, ...extra }), new SessionTokenError(''), name) &&
    t.throws(() => verifySessionToken(token, { ...options, ...extra }), message, name)

  t.test('refused', async () => {
    refused('expired', signJwtHs256(claims, secret), /expired/, { now: (now + 306) * 1000 })
    refused('wrong audience', signJwtHs256({ ...claims, aud: 'another-client' }, secret), /another app/)
    refused('wrong key', signJwtHs256(claims, 'whsec_other'), /signature/)
    refused('wrong issuer', signJwtHs256(claims, secret), /issuer/, { issuer: 'https://evil.example' })
    refused('an issuer that is no origin', signJwtHs256({ ...claims, iss: 'someone' }, secret), /issuer/)
    refused('living longer than 5 minutes', signJwtHs256({ ...claims, exp: now + 3600 }, secret), /too long/)
    refused('issued in the future', signJwtHs256({ ...claims, iat: now + 60, exp: now + 120 }, secret), /future/)
    refused('a claim missing', signJwtHs256({ ...claims, installationId: undefined }, secret), /installationId/)
    const [header, , signature] = signJwtHs256(claims, secret).split('.')
    const forged = Buffer.from(JSON.stringify({ ...claims, businessId: 'biz_2' })).toString('base64url')
    refused('claims edited after signing', `${header}.${forged}.${signature}`, /signature/)
    const none = `${Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url')}.${Buffer.from(JSON.stringify(claims)).toString('base64url')}.`
    refused('alg none', none, /HS256/)
    refused('not a JWT', 'abc', /Malformed/)
  })

  t.throws(() => verifySessionToken('a.b.c', { secret: '', clientId }), TypeError)
  t.throws(() => verifySessionToken('a.b.c', { secret, clientId: '' }), TypeError)
})
