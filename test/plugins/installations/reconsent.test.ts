import t from 'tap'
import { build, registerUser, createApp, publishApp, oauthInstall, REVIEWER_ENV } from '../../helper.ts'

t.test('scope expansion end to end', async (t) => {
  const app = await build(t, { env: REVIEWER_ENV })
  const developer = await registerUser(app, 'DEVELOPER')
  const merchant = await registerUser(app, 'MERCHANT')
  const { app: created, clientSecret } = await createApp(app, developer, { scopes: ['read_business'] })
  await publishApp(app, developer, created.id)
  const installed = await oauthInstall(app, merchant, { clientId: created.clientId, clientSecret, redirectUrl: created.redirectUrl })
  const call = (url: string) => app.inject({ url, headers: installed.auth })

  t.equal((await call('/app-api/business')).statusCode, 200)
  t.equal((await call('/app-api/pages')).statusCode, 403, 'read_pages not requested yet')

  const edited = await app.inject({ method: 'PATCH', url: `/developer/apps/${created.id}`, headers: developer.auth, payload: { scopes: ['read_business', 'read_pages'] } })
  t.equal(edited.json().status, 'DRAFT')
  let installations = (await app.inject({ url: '/merchant/installations', headers: merchant.auth })).json().data
  t.equal(installations[0].needsReConsent, false, 'nothing changes for merchants before the review')

  await publishApp(app, developer, created.id)
  installations = (await app.inject({ url: '/merchant/installations', headers: merchant.auth })).json().data
  t.match(installations[0], { needsReConsent: true, grantedScopes: ['read_business'], pendingScopes: ['read_pages'] })

  const denied = await call('/app-api/pages')
  t.equal(denied.statusCode, 403, 'the new scope is refused until re-consent')
  t.match(denied.json().message, /read_pages scope, which the merchant has not approved yet/)
  t.equal((await call('/app-api/business')).statusCode, 200, 'the original scopes keep working, same token')

  const other = await registerUser(app, 'MERCHANT')
  t.equal((await app.inject({ method: 'POST', url: `/merchant/installations/${installed.installationId}/consent`, headers: other.auth })).statusCode, 404, 'another merchant cannot consent')

  const consent = await app.inject({ method: 'POST', url: `/merchant/installations/${installed.installationId}/consent`, headers: merchant.auth })
  t.equal(consent.statusCode, 200)
  t.match(consent.json(), { needsReConsent: false, pendingScopes: [], grantedScopes: ['read_business', 'read_pages'] })
  t.equal((await call('/app-api/pages')).statusCode, 200, 'the full set after consent')
})

t.test('approval turns test installs into production installs with the same token', async (t) => {
  const app = await build(t, { env: REVIEWER_ENV })
  const developer = await registerUser(app, 'DEVELOPER')
  const { app: created } = await createApp(app, developer, { scopes: ['read_business'] })
  const test = (await app.inject({ method: 'POST', url: `/developer/apps/${created.id}/test-install`, headers: developer.auth })).json()
  t.match(test.accessToken, /^fbat_test_/)
  await publishApp(app, developer, created.id)
  const status = (await app.inject({ url: `/developer/apps/${created.id}/test-status`, headers: developer.auth })).json()
  t.match(status, { installed: true, isTestInstall: false, needsReConsent: false, installationId: test.installationId })
  t.equal((await app.inject({ url: '/app-api/business', headers: { authorization: `Bearer ${test.accessToken}` } })).statusCode, 200, 'same token still works')
})
