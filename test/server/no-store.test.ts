import t from 'tap'
import { build, createApp, registerUser, REVIEWER_ENV, uniqueEmail } from '../helper.ts'
import { installApp } from '../plugins/storefront/fixtures.ts'

t.test('every answer that carries a secret says Cache-Control: no-store', async (t) => {
  const app = await build(t, { env: REVIEWER_ENV })
  const answers: Array<[string, { headers: Record<string, unknown>, statusCode: number }]> = []
  const register = await app.inject({ method: 'POST', url: '/auth/register', payload: { email: uniqueEmail(), password: 'correct-horse', name: 'Dev', role: 'DEVELOPER' } })
  answers.push(['register (JWT)', register])
  const developer = await registerUser(app, 'DEVELOPER')
  answers.push(['login (JWT)', await app.inject({ method: 'POST', url: '/auth/login', payload: { email: developer.email, password: 'correct-horse' } })])
  const { app: created } = await createApp(app, developer)
  answers.push(['rotated client secret', await app.inject({ method: 'POST', url: `/developer/apps/${created.id}/client-secret`, headers: developer.auth })])
  answers.push(['test install (token, webhook secret)', await app.inject({ method: 'POST', url: `/developer/apps/${created.id}/test-install`, headers: developer.auth })])
  const merchant = await registerUser(app, 'MERCHANT')
  const shop = await installApp(app, merchant, { adminPages: [{ pageId: 'reports', title: 'Reports', renderUrl: 'https://reports.example/admin' }] })
  answers.push(['admin session token', await app.inject({ method: 'POST', url: `/merchant/installations/${shop.installed.installationId}/session-token`, headers: merchant.auth })])
  for (const [name, response] of answers) {
    t.ok(response.statusCode < 300, `${name}: ${response.statusCode}`)
    t.equal(response.headers['cache-control'], 'no-store', name)
  }
  const created2 = await app.inject({ method: 'POST', url: '/developer/apps', headers: developer.auth, payload: { ...created, id: undefined } })
  t.equal(created2.headers['cache-control'], 'no-store', 'a new app (its client secret), and every error too')
  const asset = await app.storefront.inject({ url: '/store/_assets/host.js' })
  t.equal(asset.headers['cache-control'], 'public, max-age=300', 'a route that sets its own caching keeps it')
})
