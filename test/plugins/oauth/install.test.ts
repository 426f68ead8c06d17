import t from 'tap'
import { AuthorizationCode } from 'simple-oauth2'
import { build, listen, registerUser, createApp, publishApp, REVIEWER_ENV } from '../../helper.ts'

const REDIRECT = 'https://app.example.com/oauth/callback'

/** An app's server as third parties write it: a maintained OAuth 2.0 client library, not our code. */
function oauthClient (base: string, clientId: string, clientSecret: string) {
  return new AuthorizationCode({
    client: { id: clientId, secret: clientSecret },
    auth: { tokenHost: base, tokenPath: '/oauth/token', authorizePath: '/oauth/authorize' },
    options: { authorizationMethod: 'header', bodyFormat: 'form' }
  })
}

t.test('OAuth install with simple-oauth2 against the running server', async (t) => {
  const app = await build(t, { env: REVIEWER_ENV })
  const base = await listen(app)
  const developer = await registerUser(app, 'DEVELOPER')

  async function consent (session: { auth: { authorization: string } }, authorizeUrl: string) {
    // the consent screen posts the user's decision with the parameters the app put in the URL
    const params = Object.fromEntries(new URL(authorizeUrl).searchParams)
    const response = await fetch(`${base}/oauth/authorize`, {
      method: 'POST', headers: { ...session.auth, 'content-type': 'application/json' },
      body: JSON.stringify({ client_id: params.client_id, redirect_uri: params.redirect_uri, scope: params.scope, state: params.state, response_type: params.response_type, decision: 'approve' })
    })
    t.equal(response.status, 200)
    return new URL((await response.json() as { redirectTo: string }).redirectTo)
  }

  t.test('a merchant installs a published app', async (t) => {
    const { app: created, clientSecret } = await createApp(app, developer, { redirectUrl: REDIRECT, scopes: ['read_business', 'read_pages'] })
    await publishApp(app, developer, created.id)
    const merchant = await registerUser(app, 'MERCHANT')
    const client = oauthClient(base, created.clientId, clientSecret)
    const authorizeUrl = client.authorizeURL({ redirect_uri: REDIRECT, scope: ['read_business'], state: 'state-123' })
    t.match(authorizeUrl, `${base}/oauth/authorize?`)

    const info = await fetch(`${base}/oauth/authorize/info?${new URL(authorizeUrl).searchParams}`, { headers: merchant.auth })
    t.match(await info.json(), { app: { name: created.name }, scopes: [{ name: 'read_business', description: /business details/ }], isTestInstall: false, alreadyInstalled: false })

    const callback = await consent(merchant, authorizeUrl)
    t.equal(`${callback.origin}${callback.pathname}`, REDIRECT, 'back to the exact redirect URL')
    t.equal(callback.searchParams.get('state'), 'state-123', 'state passed through')
    const code = callback.searchParams.get('code') as string

    const accessToken = await client.getToken({ code, redirect_uri: REDIRECT })
    const token = accessToken.token as Record<string, string>
    t.match(token, { token_type: 'bearer', scope: 'read_business', business_id: merchant.businessId, installation_id: /^inst_/ })
    t.match(token.access_token, /^fbat_(?!test_)[A-Za-z0-9_-]{43}$/)
    t.match(token.webhook_secret, /^whsec_(?!test_)[A-Za-z0-9+/]{43}=$/, 'whsec_ and standard base64 (Standard Webhooks)')
    t.equal(token.admin_return_url, `${app.origins.adminUrl}/admin/apps?installed=${token.installation_id}`, 'the way back into the admin, naming the install')

    const business = await fetch(`${base}/app-api/business`, { headers: { authorization: `Bearer ${token.access_token}` } })
    t.equal(business.status, 200)
    t.equal((await business.json() as { id: string }).id, merchant.businessId, 'the token is bound to the merchant business')
    const pages = await fetch(`${base}/app-api/pages`, { headers: { authorization: `Bearer ${token.access_token}` } })
    t.equal(pages.status, 403, 'only the granted scope')

    const installations = await fetch(`${base}/merchant/installations`, { headers: merchant.auth })
    t.match(await installations.json(), { data: [{ installationId: token.installation_id, isTestInstall: false, needsReConsent: false, grantedScopes: ['read_business'] }] })
  })

  t.test('a developer authorizes their own DRAFT app onto the sandbox (test install), with PKCE', async (t) => {
    const { app: created, clientSecret } = await createApp(app, developer, { redirectUrl: REDIRECT, scopes: ['read_business'] })
    const client = oauthClient(base, created.clientId, clientSecret)
    const verifier = 'v'.repeat(20) + '-._~' + 'A1'.repeat(12)
    const { createHash } = await import('node:crypto')
    const challenge = createHash('sha256').update(verifier).digest('base64url')
    const authorizeUrl = client.authorizeURL({ redirect_uri: REDIRECT, scope: 'read_business', state: 'dev' })
    const params = Object.fromEntries(new URL(authorizeUrl).searchParams)
    const response = await fetch(`${base}/oauth/authorize`, {
      method: 'POST', headers: { ...developer.auth, 'content-type': 'application/json' },
      body: JSON.stringify({ client_id: params.client_id, redirect_uri: params.redirect_uri, scope: params.scope, state: params.state, response_type: params.response_type, decision: 'approve', code_challenge: challenge, code_challenge_method: 'S256' })
    })
    const code = new URL((await response.json() as { redirectTo: string }).redirectTo).searchParams.get('code') as string
    const accessToken = await client.getToken({ code, redirect_uri: REDIRECT, code_verifier: verifier } as any)
    const token = accessToken.token as Record<string, string>
    t.match(token.access_token, /^fbat_test_/)
    t.match(token.webhook_secret, /^whsec_test_/)
    t.equal(token.business_id, developer.businessId, 'installed on the sandbox business')
    const business = await fetch(`${base}/app-api/business`, { headers: { authorization: `Bearer ${token.access_token}` } })
    t.equal(business.status, 200)
    const status = await fetch(`${base}/developer/apps/${created.id}/test-status`, { headers: developer.auth })
    t.match(await status.json(), { installed: true, isTestInstall: true, installationId: token.installation_id })
  })
})
