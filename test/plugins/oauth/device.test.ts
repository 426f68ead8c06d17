import t from 'tap'
import { build, registerUser } from '../../helper.ts'
import { createDeviceFlow, normalizeUserCode } from '../../../plugins/oauth/device.ts'
import type { App } from '../../../server/app.ts'
import { TestClock } from '../../clock.ts'

const GRANT = 'urn:ietf:params:oauth:grant-type:device_code'

async function start (app: App, name = 'laptop') {
  const response = await app.inject({
    method: 'POST',
    url: '/oauth/device_authorization',
    payload: `client_id=app-platform-cli&device_name=${name}`,
    headers: { 'content-type': 'application/x-www-form-urlencoded' }
  })
  if (response.statusCode !== 200) throw new Error(`device authorization failed: ${response.statusCode} ${response.body}`)
  return response.json() as DeviceCodes
}

interface DeviceCodes {
  device_code: string, user_code: string, verification_uri: string, verification_uri_complete: string, expires_in: number, interval: number
}

/** The RFC 6749 `error` a device-flow call failed with. */
async function oauthCode (call: Promise<unknown>): Promise<unknown> {
  try {
    await call
    return 'no error'
  } catch (error) {
    return (error as { extra?: { error?: string } }).extra?.error
  }
}

const poll = async (app: App, deviceCode: string) => await app.inject({ method: 'POST', url: '/oauth/token', payload: { grant_type: GRANT, device_code: deviceCode, client_id: 'app-platform-cli' } })

t.test('POST /oauth/device_authorization', async (t) => {
  const app = await build(t)

  t.test('gives codes, the verification URLs and the polling interval', async (t) => {
    const codes = await start(app)
    t.match(codes.user_code, /^[B-Z]{4}-[B-Z]{4}$/)
    t.ok(normalizeUserCode(codes.user_code))
    t.match(codes.verification_uri, /\/device$/)
    t.equal(new URL(codes.verification_uri_complete).searchParams.get('user_code'), codes.user_code)
    t.equal(codes.expires_in, 900)
    t.equal(codes.interval, 5)
  })

  t.test('refuses another client and a missing client_id in the RFC shape', async (t) => {
    const other = await app.inject({ method: 'POST', url: '/oauth/device_authorization', payload: { client_id: 'someone' } })
    t.equal(other.statusCode, 401)
    t.equal(other.json().error, 'invalid_client')
    const missing = await app.inject({ method: 'POST', url: '/oauth/device_authorization', payload: {} })
    t.equal(missing.statusCode, 400)
    t.equal(missing.json().error, 'invalid_request')
  })
})

t.test('POST /oauth/device_authorization is limited per client address', async (t) => {
  const app = await build(t, { env: { AUTH_THROTTLE_PER_ADDRESS_PER_MINUTE: '2' } })
  await start(app)
  await start(app)
  const refused = await app.inject({ method: 'POST', url: '/oauth/device_authorization', payload: { client_id: 'app-platform-cli' } })
  t.equal(refused.statusCode, 429)
  t.match(refused.json(), { error: 'rate_limited', error_description: /2 per minute/ })
  t.ok(refused.headers['retry-after'])
})

t.test('POST /oauth/token with the device grant', async (t) => {
  const app = await build(t)
  const developer = await registerUser(app, 'DEVELOPER')
  const merchant = await registerUser(app, 'MERCHANT')

  t.test('pending, slow_down, then a CLI token once approved, once', async (t) => {
    const codes = await start(app, 'ci-box')
    const first = await poll(app, codes.device_code)
    t.equal(first.statusCode, 400)
    t.equal(first.json().error, 'authorization_pending')
    const fast = await poll(app, codes.device_code)
    t.equal(fast.json().error, 'slow_down', 'a poll inside the interval is told to slow down')

    const shown = await app.inject({ method: 'GET', url: `/oauth/device?user_code=${codes.user_code.toLowerCase()}`, headers: developer.auth })
    t.equal(shown.statusCode, 200)
    t.equal(shown.json().clientName, 'ci-box')
    const byMerchant = await app.inject({ method: 'POST', url: '/oauth/device', headers: merchant.auth, payload: { user_code: codes.user_code, decision: 'approve' } })
    t.equal(byMerchant.statusCode, 403, 'only a developer approves a CLI login')
    const approved = await app.inject({ method: 'POST', url: '/oauth/device', headers: developer.auth, payload: { user_code: codes.user_code, decision: 'approve' } })
    t.equal(approved.statusCode, 204)
    const again = await app.inject({ method: 'POST', url: '/oauth/device', headers: developer.auth, payload: { user_code: codes.user_code, decision: 'deny' } })
    t.equal(again.statusCode, 409)
  })

  t.test('denied: access_denied; unknown code: invalid_grant; no device_code: invalid_request', async (t) => {
    const codes = await start(app)
    const denied = await app.inject({ method: 'POST', url: '/oauth/device', headers: developer.auth, payload: { user_code: codes.user_code, decision: 'deny' } })
    t.equal(denied.statusCode, 204)
    t.equal((await poll(app, codes.device_code)).json().error, 'access_denied')
    t.equal((await poll(app, 'nope')).json().error, 'invalid_grant')
    const missing = await app.inject({ method: 'POST', url: '/oauth/token', payload: { grant_type: GRANT, client_id: 'app-platform-cli' } })
    t.equal(missing.json().error, 'invalid_request')
    const wrongClient = await app.inject({ method: 'POST', url: '/oauth/token', payload: { grant_type: GRANT, device_code: codes.device_code } })
    t.equal(wrongClient.statusCode, 401)
    t.equal(wrongClient.json().error, 'invalid_client')
    const badCode = await app.inject({ method: 'POST', url: '/oauth/device', headers: developer.auth, payload: { user_code: 'AEIO-UAEI', decision: 'approve' } })
    t.equal(badCode.statusCode, 400)
    t.equal(badCode.json().code, 'user_code_invalid')
    const unknown = await app.inject({ method: 'POST', url: '/oauth/device', headers: developer.auth, payload: { user_code: 'BBBB-BBBB', decision: 'approve' } })
    t.equal(unknown.statusCode, 404)
  })

  t.test('the code grant still needs client authentication', async (t) => {
    const response = await app.inject({ method: 'POST', url: '/oauth/token', payload: { grant_type: 'authorization_code', code: 'x' } })
    t.equal(response.statusCode, 401)
    t.equal(response.json().error, 'invalid_client')
  })
})

t.test('the device flow on a controlled clock', async (t) => {
  const app = await build(t)
  const developer = await registerUser(app, 'DEVELOPER')
  const clock = new TestClock()
  const issued: string[] = []
  const flow = createDeviceFlow({
    executor: app.db,
    intervalSeconds: 5,
    verificationUri: () => 'http://admin.test/device',
    issueToken: async (userId) => { issued.push(userId); return { token: 'fbcli_x', expiresAt: new Date(clock.nowMs() + 1000) } },
    clock
  })

  t.test('slow_down adds five seconds to the interval, and a poll after it is answered', async (t) => {
    const codes = await flow.start('box', '127.0.0.1')
    t.equal(await oauthCode(flow.poll(codes.device_code)), 'authorization_pending')
    clock.advance(1000)
    t.equal(await oauthCode(flow.poll(codes.device_code)), 'slow_down')
    clock.advance(6000)
    t.equal(await oauthCode(flow.poll(codes.device_code)), 'slow_down', 'the interval was 10 seconds, now 15')
    clock.advance(15_000)
    await flow.decide(developer.userId, codes.user_code, 'approve')
    const token = await flow.poll(codes.device_code)
    t.equal(token.access_token, 'fbcli_x')
    t.same(issued, [developer.userId])
    clock.advance(20_000)
    t.equal(await oauthCode(flow.poll(codes.device_code)), 'invalid_grant', 'the token is issued once')
  })

  t.test('a code past 15 minutes is expired_token, and cannot be approved', async (t) => {
    const codes = await flow.start('box', '127.0.0.1')
    clock.advance(15 * 60 * 1000 + 1)
    t.equal(await oauthCode(flow.poll(codes.device_code)), 'expired_token')
    const refused = await flow.decide(developer.userId, codes.user_code, 'approve').then(() => 200, (error: { statusCode?: number }) => error.statusCode)
    t.equal(refused, 404)
  })
})
