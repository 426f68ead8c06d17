import t from 'tap'
import * as oauth from 'oauth4webapi'
import * as client from 'openid-client'
import { build, listen, registerUser, createApp, publishApp, REVIEWER_ENV, type Session } from '../../helper.ts'

const REDIRECT = 'https://app.example.com/oauth/callback'
const BASE_URL = 'http://api.platform.test'
const ADMIN_URL = 'http://admin.platform.test'

/**
 * Two standard OAuth 2.0 libraries install an app with no custom code: discovery (RFC 8414), the
 * authorize URL, code exchange with client_secret_basic (credentials form-urlencoded, RFC 6749
 * §2.3.1), an App API call, revocation (RFC 7009), then the 401 challenge (RFC 6750).
 * The public URLs are BASE_URL / ADMIN_URL; the libraries' fetch goes to the real listener.
 */
t.test('OAuth install with standard client libraries against the running server', async (t) => {
  const app = await build(t, { env: { ...REVIEWER_ENV, BASE_URL, ADMIN_URL } })
  const listening = await listen(app)
  const toListener = (url: string) => url.replace(BASE_URL, listening)
  const loopbackFetch = async (url: string, init: oauth.CustomFetchOptions<string, any>) => await fetch(toListener(url), init as RequestInit)
  const developer = await registerUser(app, 'DEVELOPER')

  /** The consent screen's part: the signed-in merchant approves what the authorize URL asks. */
  async function consent (session: Session, authorizeUrl: URL): Promise<URL> {
    t.equal(`${authorizeUrl.origin}${authorizeUrl.pathname}`, `${ADMIN_URL}/oauth/authorize`, 'the consent screen on ADMIN_URL')
    const params = Object.fromEntries(authorizeUrl.searchParams)
    const response = await fetch(`${listening}/oauth/authorize`, {
      method: 'POST', headers: { ...session.auth, 'content-type': 'application/json' },
      body: JSON.stringify({ ...params, decision: 'approve' })
    })
    t.equal(response.status, 200, 'consent accepted every parameter the library sent')
    return new URL((await response.json() as { redirectTo: string }).redirectTo)
  }

  async function publishedApp (scopes: string[]) {
    const { app: created, clientSecret } = await createApp(app, developer, { redirectUrl: REDIRECT, scopes })
    await publishApp(app, developer, created.id)
    return { clientId: created.clientId, clientSecret }
  }

  t.test('oauth4webapi', async (t) => {
    const { clientId, clientSecret } = await publishedApp(['read_business', 'read_pages'])
    const merchant = await registerUser(app, 'MERCHANT')
    const options = { [oauth.allowInsecureRequests]: true, [oauth.customFetch]: loopbackFetch }

    const issuer = new URL(BASE_URL)
    const as = await oauth.processDiscoveryResponse(issuer, await oauth.discoveryRequest(issuer, { ...options, algorithm: 'oauth2' }))
    t.match(as, {
      issuer: BASE_URL, token_endpoint: `${BASE_URL}/oauth/token`, revocation_endpoint: `${BASE_URL}/oauth/revoke`,
      code_challenge_methods_supported: ['S256'], token_endpoint_auth_methods_supported: ['client_secret_basic']
    })
    t.ok(as.scopes_supported?.includes('read_business'))

    const oauthClient: oauth.Client = { client_id: clientId }
    const clientAuth = oauth.ClientSecretBasic(clientSecret)
    const verifier = oauth.generateRandomCodeVerifier()
    const state = oauth.generateRandomState()
    const authorizeUrl = new URL(as.authorization_endpoint as string)
    authorizeUrl.search = new URLSearchParams({
      client_id: clientId, redirect_uri: REDIRECT, response_type: 'code', scope: 'read_business', state,
      code_challenge: await oauth.calculatePKCECodeChallenge(verifier), code_challenge_method: 'S256'
    }).toString()

    const callback = await consent(merchant, authorizeUrl)
    const params = oauth.validateAuthResponse(as, oauthClient, callback, state)
    const tokenResponse = await oauth.authorizationCodeGrantRequest(as, oauthClient, clientAuth, params, REDIRECT, verifier, options)
    const token = await oauth.processAuthorizationCodeResponse(as, oauthClient, tokenResponse)
    t.match(token, { token_type: 'bearer', scope: 'read_business', business_id: merchant.businessId })
    t.match(token.access_token, /^fbat_/)

    const business = await oauth.protectedResourceRequest(token.access_token, 'GET', new URL(`${BASE_URL}/app-api/business`), undefined, undefined, options)
    t.equal(business.status, 200)
    t.equal((await business.json() as { id: string }).id, merchant.businessId)
    // the library reads the RFC 6750 challenge and says which scope is missing
    await t.rejects(oauth.protectedResourceRequest(token.access_token, 'GET', new URL(`${BASE_URL}/app-api/pages`), undefined, undefined, options), {
      code: 'OAUTH_WWW_AUTHENTICATE_CHALLENGE', status: 403, cause: [{ scheme: 'bearer', parameters: { realm: 'app-api', error: 'insufficient_scope', scope: 'read_pages' } }]
    })

    await oauth.processRevocationResponse(await oauth.revocationRequest(as, oauthClient, clientAuth, token.access_token, options))
    const after = await fetch(`${listening}/app-api/business`, { headers: { authorization: `Bearer ${token.access_token}` } })
    t.equal(after.status, 401, 'the revoked token is refused')
    t.equal(after.headers.get('www-authenticate'), 'Bearer realm="app-api", error="invalid_token"')
    const installations = await fetch(`${listening}/merchant/installations`, { headers: merchant.auth })
    t.same((await installations.json() as { data: unknown[] }).data, [], 'revocation uninstalled the app')
  })

  t.test('openid-client (OAuth 2.0 mode)', async (t) => {
    const { clientId, clientSecret } = await publishedApp(['read_business'])
    const merchant = await registerUser(app, 'MERCHANT')
    const config = await client.discovery(new URL(BASE_URL), clientId, undefined, client.ClientSecretBasic(clientSecret), {
      algorithm: 'oauth2', execute: [client.allowInsecureRequests], [client.customFetch]: loopbackFetch
    })
    const verifier = client.randomPKCECodeVerifier()
    const state = client.randomState()
    const authorizeUrl = client.buildAuthorizationUrl(config, {
      redirect_uri: REDIRECT, scope: 'read_business', state,
      code_challenge: await client.calculatePKCECodeChallenge(verifier), code_challenge_method: 'S256'
    })

    const callback = await consent(merchant, authorizeUrl)
    const token = await client.authorizationCodeGrant(config, callback, { pkceCodeVerifier: verifier, expectedState: state })
    t.match(token, { token_type: 'bearer', scope: 'read_business', business_id: merchant.businessId })

    const business = await client.fetchProtectedResource(config, token.access_token, new URL(`${BASE_URL}/app-api/business`), 'GET')
    t.equal(business.status, 200)

    await client.tokenRevocation(config, token.access_token)
    await t.rejects(client.fetchProtectedResource(config, token.access_token, new URL(`${BASE_URL}/app-api/business`), 'GET'), {
      status: 401, cause: [{ scheme: 'bearer', parameters: { error: 'invalid_token' } }]
    }, 'the revoked token is refused with an RFC 6750 challenge')
  })
})
