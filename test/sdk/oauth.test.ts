import { createHash } from 'node:crypto'
import t, { type Test } from 'tap'
import {
  buildAuthorizeUrl, createPkcePair, createState, exchangeCode, OAuthError, parseAuthorizeCallback, pkceChallenge
} from '../../sdk/src/oauth.ts'
import { readText, sendJson, serve } from './http-server.ts'

/** The error a call throws (tap's throws/rejects patterns treat an `error` key specially). */
function thrown (fn: () => unknown): unknown {
  try { fn() } catch (error) { return error }
  return undefined
}
const rejection = (promise: Promise<unknown>): Promise<unknown> => promise.then(() => undefined, (error: unknown) => error)

const CLIENT_ID = 'app_client_123'
const CLIENT_SECRET = 'fbcs_s3cr3t:with-colon'
const REDIRECT = 'https://app.example.com/oauth/callback'

t.test('buildAuthorizeUrl', async (t) => {
  t.test('builds the consent-screen URL with PKCE', async (t) => {
    const url = new URL(buildAuthorizeUrl({
      adminUrl: 'https://admin.example.com',
      clientId: CLIENT_ID,
      redirectUri: REDIRECT,
      scopes: ['read_products', 'read_orders'],
      state: 'st&te=1',
      codeChallenge: 'challenge123'
    }))
    t.equal(url.origin + url.pathname, 'https://admin.example.com/oauth/authorize')
    t.same(Object.fromEntries(url.searchParams), {
      response_type: 'code',
      client_id: CLIENT_ID,
      redirect_uri: REDIRECT,
      scope: 'read_products read_orders',
      state: 'st&te=1',
      code_challenge: 'challenge123',
      code_challenge_method: 'S256'
    })
  })

  t.test('keeps a path prefix of adminUrl and omits empty scope and PKCE', async (t) => {
    const url = new URL(buildAuthorizeUrl({ adminUrl: 'https://example.com/platform/', clientId: 'c', redirectUri: REDIRECT, state: 's' }))
    t.equal(url.pathname, '/platform/oauth/authorize')
    t.notOk(url.searchParams.has('scope'))
    t.notOk(url.searchParams.has('code_challenge'))
    t.notOk(url.searchParams.has('code_challenge_method'))
  })
})

t.test('createPkcePair', async (t) => {
  const pair = createPkcePair()
  t.ok(pair.codeVerifier.length >= 43 && pair.codeVerifier.length <= 128)
  t.match(pair.codeVerifier, /^[A-Za-z0-9\-._~]+$/, 'unreserved characters only (RFC 7636 §4.1)')
  const expected = createHash('sha256').update(pair.codeVerifier).digest('base64').replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '')
  t.equal(pair.codeChallenge, expected, 'challenge = base64url(sha256(verifier))')
  t.equal(pair.codeChallengeMethod, 'S256')
  t.not(createPkcePair().codeVerifier, pair.codeVerifier)
  // RFC 7636 appendix B test vector.
  t.equal(pkceChallenge('dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk'), 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM')
  t.match(createState(), /^[A-Za-z0-9_-]{43}$/)
})

t.test('parseAuthorizeCallback', async (t) => {
  t.same(parseAuthorizeCallback(`${REDIRECT}?code=abc&state=s1`, 's1'), { code: 'abc', state: 's1' })
  t.same(parseAuthorizeCallback('/oauth/callback?code=abc&state=s1', 's1'), { code: 'abc', state: 's1' }, 'a request path (req.url)')
  t.match(thrown(() => parseAuthorizeCallback(`${REDIRECT}?code=abc&state=other`, 's1')), { error: 'invalid_state' })
  t.match(thrown(() => parseAuthorizeCallback(`${REDIRECT}?code=abc`, 's1')), { error: 'invalid_state' })
  t.match(thrown(() => parseAuthorizeCallback(`${REDIRECT}?error=access_denied&state=s1`, 's1')), { error: 'access_denied' })
  t.match(thrown(() => parseAuthorizeCallback(`${REDIRECT}?state=s1`, 's1')), { error: 'invalid_request' })
})

/** A token endpoint of its own: checks Basic auth and the form body as DESIGN §6 specifies. */
async function tokenServer (t: Test, seen: Array<Record<string, string>>) {
  return serve(t, (req, res) => {
    void (async () => {
      const text = await readText(req)
      if (req.method !== 'POST' || req.url !== '/oauth/token') return sendJson(res, 404, { statusCode: 404, error: 'Not Found', message: 'no route' })
      const form = Object.fromEntries(new URLSearchParams(text))
      seen.push({ ...form, contentType: req.headers['content-type'] ?? '' })
      const expected = 'Basic ' + Buffer.from(`${CLIENT_ID}:${CLIENT_SECRET}`).toString('base64')
      if (req.headers.authorization !== expected) {
        return sendJson(res, 401, { statusCode: 401, error: 'invalid_client', error_description: 'Client authentication failed', message: 'Client authentication failed' })
      }
      if (form.grant_type !== 'authorization_code') {
        return sendJson(res, 400, { statusCode: 400, error: 'unsupported_grant_type', error_description: 'only authorization_code', message: 'only authorization_code' })
      }
      if (form.code !== 'good-code' || form.redirect_uri !== REDIRECT) {
        return sendJson(res, 400, { statusCode: 400, error: 'invalid_grant', error_description: 'Code is invalid or expired', message: 'Code is invalid or expired' })
      }
      if (form.code_verifier !== undefined && pkceChallenge(form.code_verifier) !== 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM') {
        return sendJson(res, 400, { statusCode: 400, error: 'invalid_grant', error_description: 'PKCE verification failed', message: 'PKCE verification failed' })
      }
      sendJson(res, 200, {
        access_token: 'fbat_abc',
        token_type: 'bearer',
        scope: 'read_products read_orders',
        installation_id: 'inst_1',
        business_id: 'biz_1',
        webhook_secret: 'whsec_xyz'
      })
    })()
  })
}

t.test('exchangeCode (real HTTP token endpoint)', async (t) => {
  const seen: Array<Record<string, string>> = []
  const baseUrl = await tokenServer(t, seen)
  const params = { baseUrl, clientId: CLIENT_ID, clientSecret: CLIENT_SECRET, code: 'good-code', redirectUri: REDIRECT }

  t.test('returns the token after Basic auth and a form body', async (t) => {
    const token = await exchangeCode({ ...params, codeVerifier: 'dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk' })
    t.same(token, {
      access_token: 'fbat_abc',
      token_type: 'bearer',
      scope: 'read_products read_orders',
      installation_id: 'inst_1',
      business_id: 'biz_1',
      webhook_secret: 'whsec_xyz'
    })
    t.match(seen.at(-1), {
      grant_type: 'authorization_code',
      code: 'good-code',
      redirect_uri: REDIRECT,
      code_verifier: 'dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk',
      contentType: 'application/x-www-form-urlencoded'
    })
  })

  t.test('omits code_verifier when none is given', async (t) => {
    await exchangeCode(params)
    t.notOk('code_verifier' in (seen.at(-1) ?? {}))
  })

  t.test('throws OAuthError with the RFC 6749 error of the answer', async (t) => {
    t.match(await rejection(exchangeCode({ ...params, code: 'used-code' })), {
      name: 'OAuthError', error: 'invalid_grant', error_description: 'Code is invalid or expired', statusCode: 400
    })
    t.match(await rejection(exchangeCode({ ...params, clientSecret: 'fbcs_wrong' })), { error: 'invalid_client', statusCode: 401 })
    t.match(await rejection(exchangeCode({ ...params, codeVerifier: 'not-the-verifier-of-the-challenge-sent-earlier' })), {
      error: 'invalid_grant', error_description: 'PKCE verification failed'
    })
    const error = await exchangeCode({ ...params, code: 'x' }).catch((e: unknown) => e)
    t.ok(error instanceof OAuthError)
  })

  t.test('maps an answer without an RFC 6749 body to server_error', async (t) => {
    t.match(await rejection(exchangeCode({ ...params, baseUrl: `${baseUrl}/missing` })), { name: 'OAuthError', error: 'server_error', statusCode: 404, error_description: 'no route' })
  })
})

t.test('exchangeCode refuses a 200 that is not a token', async (t) => {
  const baseUrl = await serve(t, (_req, res) => sendJson(res, 200, { access_token: 'fbat_x' }))
  t.match(await rejection(exchangeCode({ baseUrl, clientId: 'c', clientSecret: 's', code: 'c', redirectUri: REDIRECT })), { error: 'invalid_response' })
})
