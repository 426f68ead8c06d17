import t from 'tap'
import { eq } from 'drizzle-orm'
import { webhooks } from '../../../server/db/schema/index.ts'
import { DATA_ERASURE_JOB } from '../../../plugins/installations/service.ts'
import { SCOPES } from '../../../server/events.ts'
import { build, registerUser, createApp, publishApp, oauthInstall, REVIEWER_ENV } from '../../helper.ts'

const REDIRECT = 'https://app.example.com/oauth/callback'
/** RFC 6749 §2.3.1 as the libraries do it: each part form-urlencoded (`_` → `%5F`), then base64. */
const formEncode = (value: string) => encodeURIComponent(value).replace(/[!'()*_~.-]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)
const basic = (id: string, secret: string, encode = true) =>
  ({ authorization: `Basic ${Buffer.from(encode ? `${formEncode(id)}:${formEncode(secret)}` : `${id}:${secret}`).toString('base64')}` })

t.test('GET /.well-known/oauth-authorization-server', async (t) => {
  const app = await build(t, { env: { BASE_URL: 'https://api.example.test', ADMIN_URL: 'https://admin.example.test' } })

  t.test('answers the RFC 8414 metadata', async (t) => {
    const response = await app.inject({ url: '/.well-known/oauth-authorization-server' })
    t.equal(response.statusCode, 200)
    t.same(response.json(), {
      issuer: 'https://api.example.test',
      authorization_endpoint: 'https://admin.example.test/oauth/authorize',
      token_endpoint: 'https://api.example.test/oauth/token',
      revocation_endpoint: 'https://api.example.test/oauth/revoke',
      response_types_supported: ['code'],
      grant_types_supported: ['authorization_code', 'urn:ietf:params:oauth:grant-type:device_code'],
      device_authorization_endpoint: 'https://api.example.test/oauth/device_authorization',
      code_challenge_methods_supported: ['S256'],
      token_endpoint_auth_methods_supported: ['client_secret_basic', 'none'],
      revocation_endpoint_auth_methods_supported: ['client_secret_basic'],
      scopes_supported: [...SCOPES],
      service_documentation: 'https://api.example.test/docs'
    })
  })

  t.test('nothing under /.well-known falls back to the SPA', async (t) => {
    for (const url of ['/.well-known/openid-configuration', '/.well-known/', '/.well-known/oauth-authorization-server/x']) {
      const response = await app.inject({ url })
      t.equal(response.statusCode, 404, url)
      t.match(response.headers['content-type'], /application\/json/, url)
      t.match(response.json(), { statusCode: 404, error: 'Not Found' }, url)
    }
  })
})

t.test('client authentication and POST /oauth/revoke', async (t) => {
  const app = await build(t, { env: { ...REVIEWER_ENV, DATA_ERASURE_DELAY_SECONDS: '3600' } })
  const developer = await registerUser(app, 'DEVELOPER')
  const { app: created, clientSecret } = await createApp(app, developer, { redirectUrl: REDIRECT, scopes: ['read_business', 'read_orders'], webhookEvents: ['order.created'] })
  await publishApp(app, developer, created.id)
  const client = { clientId: created.clientId, clientSecret, redirectUrl: REDIRECT }
  const revoke = (payload: Record<string, string> | string, headers: Record<string, string> = basic(created.clientId, clientSecret)) =>
    app.inject({ method: 'POST', url: '/oauth/revoke', headers: { ...headers, ...(typeof payload === 'string' ? { 'content-type': 'application/x-www-form-urlencoded' } : {}) }, payload })

  t.test('the token endpoint accepts form-urlencoded Basic credentials, and raw ones', async (t) => {
    const merchant = await registerUser(app, 'MERCHANT')
    const codeFor = async () => {
      const consent = await app.inject({ method: 'POST', url: '/oauth/authorize', headers: merchant.auth, payload: { client_id: created.clientId, redirect_uri: REDIRECT, response_type: 'code', decision: 'approve' } })
      return new URL(consent.json().redirectTo).searchParams.get('code') as string
    }
    t.match(basic(created.clientId, clientSecret).authorization, /^Basic /)
    t.match(Buffer.from(basic(created.clientId, clientSecret).authorization.slice(6), 'base64').toString(), /%5F/, 'the secret really is encoded')
    for (const encode of [true, false]) {
      const response = await app.inject({
        method: 'POST', url: '/oauth/token', headers: { ...basic(created.clientId, clientSecret, encode), 'content-type': 'application/x-www-form-urlencoded' },
        payload: new URLSearchParams({ grant_type: 'authorization_code', code: await codeFor(), redirect_uri: REDIRECT }).toString()
      })
      t.equal(response.statusCode, 200, encode ? 'encoded' : 'raw')
    }
    const wrong = await app.inject({ method: 'POST', url: '/oauth/token', headers: basic(created.clientId, `${clientSecret}x`), payload: { grant_type: 'authorization_code', code: 'x', redirect_uri: REDIRECT } })
    t.match(wrong.json(), { statusCode: 401, error: 'invalid_client' })
    const malformed = await app.inject({ method: 'POST', url: '/oauth/token', headers: { authorization: 'Basic !!!' }, payload: { grant_type: 'authorization_code' } })
    t.match(malformed.json(), { statusCode: 401, error: 'invalid_client', error_description: String, message: String }, 'a malformed header in the RFC shape')
  })

  t.test('revoking its access token uninstalls the app like a merchant uninstall', async (t) => {
    const merchant = await registerUser(app, 'MERCHANT')
    const installed = await oauthInstall(app, merchant, client)
    t.equal((await app.inject({ url: '/app-api/business', headers: installed.auth })).statusCode, 200, 'works (and is cached)')

    const response = await revoke(new URLSearchParams({ token: installed.accessToken, token_type_hint: 'access_token' }).toString())
    t.equal(response.statusCode, 200)
    t.same(response.json(), {})
    t.equal(response.headers['cache-control'], 'no-store')

    const after = await app.inject({ url: '/app-api/business', headers: installed.auth })
    t.equal(after.statusCode, 401)
    t.equal(after.headers['www-authenticate'], 'Bearer realm="app-api", error="invalid_token"')
    t.same((await app.inject({ url: '/merchant/installations', headers: merchant.auth })).json().data, [], 'no longer installed')
    const [hook] = await app.db.select().from(webhooks).where(eq(webhooks.installationId, installed.installationId))
    t.match(hook, { isActive: false, disabledReason: 'App uninstalled' }, 'its webhooks are off')
    const { rows } = await app.database.executeSql("select state from pgboss.job where name = $1 and data->>'installationId' = $2", [DATA_ERASURE_JOB, installed.installationId])
    t.same(rows, [{ state: 'created' }], 'data erasure scheduled')

    t.equal((await revoke({ token: installed.accessToken })).statusCode, 200, 'a second revocation is a 200 too')
  })

  t.test('an unknown token or another client’s token: 200, nothing changes', async (t) => {
    const merchant = await registerUser(app, 'MERCHANT')
    const installed = await oauthInstall(app, merchant, client)
    const { app: other, clientSecret: otherSecret } = await createApp(app, developer, { redirectUrl: REDIRECT })
    const refused = await revoke({ token: installed.accessToken }, basic(other.clientId, otherSecret))
    t.equal(refused.statusCode, 400, "another client's token is refused (RFC 7009 §2.1)")
    t.match(refused.json(), { error: 'unauthorized_client', error_description: /not issued to this client/, statusCode: 400 })
    t.equal((await app.inject({ url: '/app-api/business', headers: installed.auth })).statusCode, 200, 'still installed')
    t.equal((await revoke({ token: 'fbat_' + 'x'.repeat(43) })).statusCode, 200)
    t.equal((await revoke({ token: 'not-a-token' })).statusCode, 200)
  })

  t.test('errors in the RFC shape', async (t) => {
    const missing = await revoke({})
    t.equal(missing.statusCode, 400)
    t.match(missing.json(), { error: 'invalid_request', error_description: /token/, statusCode: 400, message: String })
    const anonymous = await app.inject({ method: 'POST', url: '/oauth/revoke', payload: { token: 'x' } })
    t.equal(anonymous.statusCode, 401)
    t.match(anonymous.json(), { error: 'invalid_client', statusCode: 401 })
    t.match(anonymous.headers['www-authenticate'], /^Basic/)
  })
})

t.test('RFC 6750 challenges on the App API and /webhooks', async (t) => {
  const app = await build(t, { env: REVIEWER_ENV })
  const developer = await registerUser(app, 'DEVELOPER')
  const merchant = await registerUser(app, 'MERCHANT')
  const { app: created, clientSecret } = await createApp(app, developer, { redirectUrl: REDIRECT, scopes: ['read_business'] })
  await publishApp(app, developer, created.id)
  const installed = await oauthInstall(app, merchant, { clientId: created.clientId, clientSecret, redirectUrl: REDIRECT })

  for (const url of ['/app-api/products', '/webhooks']) {
    for (const headers of [{}, { authorization: 'Basic eDp5' }]) {
      const response = await app.inject({ url, headers })
      t.equal(response.statusCode, 401, url)
      t.equal(response.headers['www-authenticate'], 'Bearer realm="app-api"', `${url}: no credentials, no error code (RFC 6750 §3.1)`)
    }
    const wrong = await app.inject({ url, headers: { authorization: `Bearer fbat_${'x'.repeat(40)}` } })
    t.equal(wrong.statusCode, 401, url)
    t.equal(wrong.headers['www-authenticate'], 'Bearer realm="app-api", error="invalid_token"', url)
  }
  const scope = await app.inject({ url: '/app-api/orders', headers: installed.auth })
  t.equal(scope.statusCode, 403)
  t.equal(scope.headers['www-authenticate'], 'Bearer realm="app-api", error="insufficient_scope", scope="read_orders"')
  const event = await app.inject({ method: 'POST', url: '/webhooks', headers: installed.auth, payload: { url: 'https://app.example.com/hook', events: ['order.created'] } })
  t.equal(event.statusCode, 403)
  t.equal(event.headers['www-authenticate'], 'Bearer realm="app-api", error="insufficient_scope", scope="read_orders"')
})
