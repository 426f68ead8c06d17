import t from 'tap'
import { build, registerUser, createApp, publishApp, oauthInstall, REVIEWER_ENV } from '../../helper.ts'

const settingsSchema = {
  type: 'object',
  properties: { accent: { type: 'string', format: 'color' }, perPage: { type: 'integer', minimum: 1, maximum: 50 }, enabled: { type: 'boolean' } },
  required: ['perPage'],
  additionalProperties: false
}

t.test('/merchant/installations/:id/settings', async (t) => {
  const app = await build(t, { env: REVIEWER_ENV })
  const developer = await registerUser(app, 'DEVELOPER')
  const merchant = await registerUser(app, 'MERCHANT')
  const { app: created, clientSecret } = await createApp(app, developer, { scopes: ['read_business'] })
  const adminPages = [{ pageId: 'reports', title: 'Reports', renderUrl: 'https://app.example.com/admin/reports' }]
  await app.inject({ method: 'PUT', url: `/developer/apps/${created.id}/manifest`, headers: developer.auth, payload: { manifest: { settingsSchema, adminPages } } })
  await publishApp(app, developer, created.id)
  const installed = await oauthInstall(app, merchant, { clientId: created.clientId, clientSecret, redirectUrl: created.redirectUrl })
  const url = `/merchant/installations/${installed.installationId}/settings`

  const listed = (await app.inject({ url: '/merchant/installations', headers: merchant.auth })).json().data
  t.match(listed, [{ installationId: installed.installationId, hasSettings: true, adminPages: [{ pageId: 'reports', title: 'Reports', iconName: null, renderUrl: adminPages[0].renderUrl }] }], 'the list carries what the admin panel needs')
  t.same(Object.keys((await app.inject({ url, headers: merchant.auth })).json().settingsSchema.properties), ['accent', 'perPage', 'enabled'], 'the schema keeps the developer’s field order')

  const initial = await app.inject({ url, headers: merchant.auth })
  t.same(initial.json(), { settings: {}, settingsSchema })

  const saved = await app.inject({ method: 'PUT', url, headers: merchant.auth, payload: { settings: { accent: '#3b5bdb', perPage: 12, enabled: true } } })
  t.equal(saved.statusCode, 200)
  t.same((await app.inject({ url, headers: merchant.auth })).json().settings, { accent: '#3b5bdb', perPage: 12, enabled: true })

  const bad = await app.inject({ method: 'PUT', url, headers: merchant.auth, payload: { settings: { accent: 'blue', perPage: 0, extra: 1 } } })
  t.equal(bad.statusCode, 400)
  t.match(bad.json().message, /^Invalid settings: /)
  t.same((await app.inject({ url, headers: merchant.auth })).json().settings, { accent: '#3b5bdb', perPage: 12, enabled: true }, 'nothing written')
  t.equal((await app.inject({ method: 'PUT', url, headers: merchant.auth, payload: { settings: 'x' } })).statusCode, 400)

  const stranger = await registerUser(app, 'MERCHANT')
  t.equal((await app.inject({ url, headers: stranger.auth })).statusCode, 404, "another business's installation")
  t.equal((await app.inject({ url, headers: developer.auth })).statusCode, 404, 'a developer acts on their sandbox only: this installation is not there')
  t.equal((await app.inject({ url: '/merchant/installations' })).statusCode, 401)
})
