import t from 'tap'
import * as oauth from 'oauth4webapi'
import { AuthorizationCode } from 'simple-oauth2'
import { build, listen, registerUser, createApp, publishApp, oauthInstall, REVIEWER_ENV, type Session } from '../../helper.ts'

const REDIRECT = 'https://app.example.com/oauth/callback'
/** What `fn` throws (null when it returns): tap's throws() types no custom error fields. */
function thrown (fn: () => unknown): unknown {
  try {
    fn()
  } catch (error) {
    return error
  }
  return null
}

/**
 * The edges of RFC 6749 / 6750 / 7009 that outside clients trip on, each read by a standard client
 * library where one reads it: errors after a valid redirect_uri go back to the client with the state,
 * response_type and response_mode, a missing grant_type, another client's token at revocation, and
 * the bare challenge to a request without credentials.
 */
t.test('OAuth edges, as standard clients see them', async (t) => {
  const app = await build(t, { env: REVIEWER_ENV })
  const listening = await listen(app)
  const options = { [oauth.allowInsecureRequests]: true }
  const as: oauth.AuthorizationServer = {
    issuer: listening, authorization_endpoint: `${listening}/oauth/authorize`, token_endpoint: `${listening}/oauth/token`, revocation_endpoint: `${listening}/oauth/revoke`
  }
  const developer = await registerUser(app, 'DEVELOPER')
  const merchant = await registerUser(app, 'MERCHANT')
  const { app: created, clientSecret } = await createApp(app, developer, { redirectUrl: REDIRECT, scopes: ['read_business', 'read_pages'] })
  await publishApp(app, developer, created.id)
  const client: oauth.Client = { client_id: created.clientId }

  /** What the consent screen asks first (GET …/info with the authorization request), as the merchant. */
  const info = (params: Record<string, string>, session: Session = merchant) =>
    app.inject({ url: `/oauth/authorize/info?${new URLSearchParams({ client_id: created.clientId, redirect_uri: REDIRECT, ...params })}`, headers: session.auth })
  const approve = (params: Record<string, string>, session: Session = merchant) =>
    app.inject({ method: 'POST', url: '/oauth/authorize', headers: session.auth, payload: { client_id: created.clientId, redirect_uri: REDIRECT, ...params, decision: 'approve' } })

  t.test('errors after a valid redirect_uri go back to the client with error and state (RFC 6749 §4.1.2.1)', async (t) => {
    const cases: Array<[Record<string, string>, string, RegExp]> = [
      [{ state: 's-1' }, 'invalid_request', /response_type is required/],
      [{ state: 's-2', response_type: 'token' }, 'unsupported_response_type', /response_type=code/],
      [{ state: 's-3', response_type: 'code', response_mode: 'fragment' }, 'invalid_request', /response_mode=fragment/],
      [{ state: 's-4', response_type: 'code', scope: 'read_orders' }, 'invalid_scope', /read_orders/],
      [{ state: 's-5', response_type: 'code', code_challenge_method: 'plain', code_challenge: 'c'.repeat(43) }, 'invalid_request', /S256/]
    ]
    for (const [params, error, description] of cases) {
      for (const response of [await info(params), await approve(params)]) {
        t.equal(response.statusCode, 400, `${JSON.stringify(params)}: ${response.body}`)
        const body = response.json()
        t.match(body, { statusCode: 400, code: error, redirectTo: String })
        const callback = new URL(body.redirectTo)
        t.equal(`${callback.origin}${callback.pathname}`, REDIRECT, 'to the registered redirect_uri')
        // the library checks the state and reads the error as a client would on its callback
        t.match(thrown(() => oauth.validateAuthResponse(as, client, callback, params.state)), { error, error_description: description }, error)
      }
    }
  })

  t.test('a redirect_uri that does not match is never redirected to', async (t) => {
    for (const response of [await info({ response_type: 'code', redirect_uri: 'https://evil.example.com/cb' }), await approve({ redirect_uri: 'https://evil.example.com/cb' })]) {
      t.equal(response.statusCode, 400)
      t.notOk('redirectTo' in response.json())
    }
  })

  t.test('a merchant cannot install an unpublished app: back to the client as unauthorized_client', async (t) => {
    const { app: draft } = await createApp(app, developer, { redirectUrl: REDIRECT })
    const response = await app.inject({ url: `/oauth/authorize/info?${new URLSearchParams({ client_id: draft.clientId, redirect_uri: REDIRECT, response_type: 'code', state: 'd' })}`, headers: merchant.auth })
    t.match(thrown(() => oauth.validateAuthResponse(as, { client_id: draft.clientId }, new URL(response.json().redirectTo), 'd')), { error: 'unauthorized_client' })
  })

  t.test('response_mode=query is accepted; a code is issued only with response_type=code', async (t) => {
    t.equal((await info({ response_type: 'code', response_mode: 'query' })).statusCode, 200)
    const approved = await approve({ response_type: 'code', response_mode: 'query', state: 'q' })
    t.equal(approved.statusCode, 200)
    const params = oauth.validateAuthResponse(as, client, new URL(approved.json().redirectTo), 'q')
    t.ok(params.get('code'))
    t.notOk(new URL((await approve({ state: 'none' })).json().redirectTo).searchParams.has('code'), 'no code without response_type')
  })

  t.test('POST /oauth/token without grant_type → invalid_request; another grant → unsupported_grant_type', async (t) => {
    const basic = { authorization: `Basic ${Buffer.from(`${created.clientId}:${clientSecret}`).toString('base64')}`, 'content-type': 'application/x-www-form-urlencoded' }
    const missing = await app.inject({ method: 'POST', url: '/oauth/token', headers: basic, payload: `code=x&redirect_uri=${encodeURIComponent(REDIRECT)}` })
    t.equal(missing.statusCode, 400)
    t.match(missing.json(), { error: 'invalid_request', error_description: /grant_type is required/ })
    // simple-oauth2's client credentials grant is a real grant this server does not offer
    const simple = new AuthorizationCode({ client: { id: created.clientId, secret: clientSecret }, auth: { tokenHost: listening } })
    const refused = await simple.getToken({ code: 'x', redirect_uri: REDIRECT, grant_type: 'password' } as unknown as Parameters<typeof simple.getToken>[0]).then(() => null, (error: unknown) => error)
    t.match(refused, { data: { payload: { error: 'unsupported_grant_type' } } })
  })

  t.test('revoking another client\'s token → 400 unauthorized_client, and it keeps working (RFC 7009 §2.1)', async (t) => {
    const installed = await oauthInstall(app, merchant, { clientId: created.clientId, clientSecret, redirectUrl: REDIRECT })
    const { app: other, clientSecret: otherSecret } = await createApp(app, developer, { redirectUrl: REDIRECT })
    const response = await oauth.revocationRequest(as, { client_id: other.clientId }, oauth.ClientSecretBasic(otherSecret), installed.accessToken, options)
    t.match(await oauth.processRevocationResponse(response).then(() => null, (error: unknown) => error), { error: 'unauthorized_client', status: 400 })
    t.equal((await app.inject({ url: '/app-api/business', headers: installed.auth })).statusCode, 200, 'nothing was revoked')
    // the owner's revocation still works
    await oauth.processRevocationResponse(await oauth.revocationRequest(as, client, oauth.ClientSecretBasic(clientSecret), installed.accessToken, options))
    t.equal((await app.inject({ url: '/app-api/business', headers: installed.auth })).statusCode, 401)
  })

  t.test('a request without credentials gets a challenge with no error code (RFC 6750 §3.1)', async (t) => {
    const bare = await fetch(`${listening}/app-api/business`)
    t.equal(bare.status, 401)
    t.equal(bare.headers.get('www-authenticate'), 'Bearer realm="app-api"')
    // with a token, the library reads the challenge: invalid_token
    const wrong = await oauth.protectedResourceRequest(`fbat_${'x'.repeat(40)}`, 'GET', new URL(`${listening}/app-api/business`), undefined, undefined, options)
      .then(() => null, (error: unknown) => error)
    t.match(wrong, { status: 401, cause: [{ scheme: 'bearer', parameters: { realm: 'app-api', error: 'invalid_token' } }] })
  })
})
