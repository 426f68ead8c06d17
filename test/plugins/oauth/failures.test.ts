import t from 'tap'
import { desc, sql } from 'drizzle-orm'
import { oauthCodes } from '../../../server/db/schema/index.ts'
import { build, registerUser, createApp, publishApp, REVIEWER_ENV } from '../../helper.ts'
import { pkceChallenge } from '../../../plugins/oauth/service.ts'

const REDIRECT = 'https://app.example.com/oauth/callback'
const basic = (id: string, secret: string) => ({ authorization: `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}` })

t.test('OAuth failure cases', async (t) => {
  const app = await build(t, { env: REVIEWER_ENV })
  const developer = await registerUser(app, 'DEVELOPER')
  const merchant = await registerUser(app, 'MERCHANT')
  const { app: published, clientSecret } = await createApp(app, developer, { redirectUrl: REDIRECT, scopes: ['read_business', 'read_pages'] })
  await publishApp(app, developer, published.id)
  let secret = clientSecret

  const authorize = (payload: Record<string, unknown>, user = merchant) =>
    app.inject({ method: 'POST', url: '/oauth/authorize', headers: user.auth, payload: { client_id: published.clientId, redirect_uri: REDIRECT, response_type: 'code', decision: 'approve', ...payload } })
  const codeFrom = async (payload: Record<string, unknown> = {}) => new URL((await authorize(payload)).json().redirectTo).searchParams.get('code') as string
  const exchange = (code: string, extra: Record<string, unknown> = {}, headers = basic(published.clientId, secret)) =>
    app.inject({ method: 'POST', url: '/oauth/token', headers, payload: { grant_type: 'authorization_code', code, redirect_uri: REDIRECT, ...extra } })

  t.test('wrong client secret → 401 invalid_client', async (t) => {
    const response = await exchange(await codeFrom(), {}, basic(published.clientId, 'fbcs_wrong'))
    t.equal(response.statusCode, 401)
    t.match(response.json(), { error: 'invalid_client', error_description: String, statusCode: 401, message: String })
    t.match(response.headers['www-authenticate'], /^Basic/)
    t.equal((await app.inject({ method: 'POST', url: '/oauth/token', payload: { grant_type: 'authorization_code', code: 'x', redirect_uri: REDIRECT } })).json().error, 'invalid_client', 'no credentials at all')
  })

  t.test('a regenerated-away secret → 401 invalid_client; the new one works', async (t) => {
    const code = await codeFrom()
    const old = secret
    secret = (await app.inject({ method: 'POST', url: `/developer/apps/${published.id}/client-secret`, headers: developer.auth })).json().clientSecret
    t.equal((await exchange(code, {}, basic(published.clientId, old))).json().error, 'invalid_client')
    t.equal((await exchange(code)).statusCode, 200)
  })

  t.test('wrong redirect_uri: 400 at authorize, invalid_grant at the exchange', async (t) => {
    const response = await authorize({ redirect_uri: 'https://evil.example.com/cb' })
    t.equal(response.statusCode, 400)
    t.match(response.json(), { statusCode: 400, code: 'invalid_request', message: /redirect_uri does not match/ })
    t.notOk('redirectTo' in response.json(), 'never redirects to an unregistered URL')
    const info = await app.inject({ method: 'GET', url: `/oauth/authorize/info?client_id=${published.clientId}&redirect_uri=${encodeURIComponent(`${REDIRECT}/x`)}`, headers: merchant.auth })
    t.equal(info.statusCode, 400)
    const exchanged = await exchange(await codeFrom(), { redirect_uri: 'https://app.example.com/other' })
    t.match(exchanged.json(), { error: 'invalid_grant', statusCode: 400 })
  })

  t.test('a reused code is refused and revokes the token it issued', async (t) => {
    const code = await codeFrom()
    const first = await exchange(code)
    t.equal(first.statusCode, 200)
    const token = first.json().access_token
    t.equal((await app.inject({ url: '/app-api/business', headers: { authorization: `Bearer ${token}` } })).statusCode, 200)
    const replay = await exchange(code)
    t.equal(replay.statusCode, 400)
    t.match(replay.json(), { error: 'invalid_grant', error_description: /already used/ })
    t.equal((await app.inject({ url: '/app-api/business', headers: { authorization: `Bearer ${token}` } })).statusCode, 401, 'the issued token is revoked')
  })

  t.test('an expired code → invalid_grant', async (t) => {
    const code = await codeFrom()
    await app.db.update(oauthCodes).set({ expiresAt: new Date(Date.now() - 1000) }).where(sql`${oauthCodes.usedAt} is null and ${oauthCodes.expiresAt} > now()`)
    t.match((await exchange(code)).json(), { error: 'invalid_grant', error_description: /expired/ })
  })

  t.test('codes live 10 minutes', async (t) => {
    await codeFrom()
    const [latest] = await app.db.select().from(oauthCodes).orderBy(desc(oauthCodes.createdAt)).limit(1)
    const lifetime = latest.expiresAt.getTime() - latest.createdAt.getTime()
    t.ok(Math.abs(lifetime - 600_000) < 2000, `lifetime ${lifetime} ms`)
  })

  t.test('PKCE: a bad or missing verifier → invalid_grant; the right one works', async (t) => {
    const verifier = 'a'.repeat(43)
    const withChallenge = () => codeFrom({ code_challenge: pkceChallenge(verifier), code_challenge_method: 'S256' })
    t.match((await exchange(await withChallenge(), { code_verifier: 'b'.repeat(43) })).json(), { error: 'invalid_grant', error_description: /does not match/ })
    t.match((await exchange(await withChallenge())).json(), { error: 'invalid_grant', error_description: /missing/ })
    t.equal((await exchange(await withChallenge(), { code_verifier: verifier })).statusCode, 200)
    t.match((await exchange(await codeFrom(), { code_verifier: verifier })).json(), { error: 'invalid_grant' }, 'a verifier for a code without challenge')
  })

  t.test('a scope outside the approved set → 400 invalid_scope', async (t) => {
    const response = await authorize({ scope: 'read_business read_orders' })
    t.equal(response.statusCode, 400)
    t.match(response.json(), { code: 'invalid_scope', message: /read_orders/ })
  })

  t.test('a merchant cannot install a DRAFT app; a developer cannot install another developer’s app', async (t) => {
    const { app: draft } = await createApp(app, developer, { redirectUrl: REDIRECT })
    const response = await app.inject({ method: 'POST', url: '/oauth/authorize', headers: merchant.auth, payload: { client_id: draft.clientId, redirect_uri: REDIRECT, response_type: 'code', decision: 'approve' } })
    t.equal(response.statusCode, 400)
    t.match(response.json(), { code: 'unauthorized_client', message: /not published/ })
    const stranger = await registerUser(app, 'DEVELOPER')
    t.match((await authorize({}, stranger)).json(), { code: 'unauthorized_client' })
    t.match((await app.inject({ method: 'POST', url: '/oauth/authorize', headers: merchant.auth, payload: { client_id: 'f'.repeat(32), redirect_uri: REDIRECT, decision: 'approve' } })).json(), { code: 'invalid_client' })
  })

  t.test('deny → redirect with access_denied and the state', async (t) => {
    const response = await authorize({ decision: 'deny', state: 's-1' })
    const url = new URL(response.json().redirectTo)
    t.equal(url.searchParams.get('error'), 'access_denied')
    t.equal(url.searchParams.get('state'), 's-1')
    t.notOk(url.searchParams.has('code'))
  })

  t.test('malformed token requests', async (t) => {
    t.match((await exchange(await codeFrom(), { grant_type: 'password' })).json(), { error: 'unsupported_grant_type', statusCode: 400 })
    t.match((await exchange('')).json(), { error: 'invalid_request' })
    t.match((await exchange('not-a-real-code')).json(), { error: 'invalid_grant' })
    const form = await app.inject({
      method: 'POST', url: '/oauth/token', headers: { ...basic(published.clientId, secret), 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ grant_type: 'authorization_code', code: await codeFrom(), redirect_uri: REDIRECT }).toString()
    })
    t.equal(form.statusCode, 200, 'form bodies work')
    t.equal(form.headers['cache-control'], 'no-store')
  })

  t.test('consent needs a signed-in merchant or developer', async (t) => {
    t.equal((await app.inject({ method: 'POST', url: '/oauth/authorize', payload: { client_id: published.clientId, redirect_uri: REDIRECT, response_type: 'code', decision: 'approve' } })).statusCode, 401)
    const reviewer = await app.inject({ method: 'POST', url: '/auth/login', payload: { email: REVIEWER_ENV.REVIEWER_EMAIL, password: REVIEWER_ENV.REVIEWER_PASSWORD } })
    const response = await app.inject({ method: 'POST', url: '/oauth/authorize', headers: { authorization: `Bearer ${reviewer.json().token}` }, payload: { client_id: published.clientId, redirect_uri: REDIRECT, response_type: 'code', decision: 'approve' } })
    t.equal(response.statusCode, 403)
  })
})
