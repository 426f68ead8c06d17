import t from 'tap'
import { verifySessionToken } from '../../../sdk/src/index.ts'
import { build, registerUser, REVIEWER_ENV } from '../../helper.ts'
import { installApp } from '../storefront/fixtures.ts'

t.test('POST /merchant/installations/:id/session-token', async (t) => {
  const app = await build(t, { env: { ...REVIEWER_ENV, ADMIN_URL: 'https://admin.example/' } })
  const merchant = await registerUser(app, 'MERCHANT')
  const shop = await installApp(app, merchant, { adminPages: [{ pageId: 'reports', title: 'Reports', renderUrl: 'https://reports.example/admin' }] })
  const { clientId } = (await app.inject({ url: `/developer/apps/${shop.appId}`, headers: shop.developer.auth })).json()
  const url = `/merchant/installations/${shop.installed.installationId}/session-token`

  const response = await app.inject({ method: 'POST', url, headers: merchant.auth })
  t.equal(response.statusCode, 200)
  const { sessionToken, expiresAt } = response.json()
  const claims = verifySessionToken(sessionToken, { secret: shop.installed.webhookSecret, clientId, issuer: 'https://admin.example' })
  t.match(claims, { iss: 'https://admin.example', aud: clientId, sub: merchant.userId, businessId: merchant.businessId, installationId: shop.installed.installationId })
  t.equal(claims.exp - claims.iat, 300, 'five minutes')
  t.equal(new Date(expiresAt).getTime(), claims.exp * 1000)
  t.match(JSON.parse(Buffer.from(sessionToken.split('.')[0], 'base64url').toString()), { alg: 'HS256', typ: 'JWT' })
  const again = (await app.inject({ method: 'POST', url, headers: merchant.auth })).json().sessionToken
  t.not(verifySessionToken(again, { secret: shop.installed.webhookSecret, clientId }).jti, claims.jti, 'each token its own id')

  const stranger = await registerUser(app, 'MERCHANT')
  t.equal((await app.inject({ method: 'POST', url, headers: stranger.auth })).statusCode, 404, "another business's installation")
  t.equal((await app.inject({ method: 'POST', url })).statusCode, 401)
  const developer = await registerUser(app, 'DEVELOPER')
  t.equal((await app.inject({ method: 'POST', url, headers: developer.auth })).statusCode, 404, 'a developer acts on their sandbox only: not this installation')
  await app.inject({ method: 'DELETE', url: `/merchant/installations/${shop.installed.installationId}`, headers: merchant.auth })
  t.equal((await app.inject({ method: 'POST', url, headers: merchant.auth })).statusCode, 404, 'uninstalled')
})
