import t from 'tap'
import { build, registerUser, REVIEWER_ENV } from '../../helper.ts'
// the storefront's fixtures: apps with blocks and embeds installed on a business
import { analyticsScript, chatWidget, installApp, putEmbeds } from '../storefront/fixtures.ts'

t.test('GET|PUT /merchant/installations/:id/embeds', async (t) => {
  const app = await build(t, { env: REVIEWER_ENV })
  const merchant = await registerUser(app, 'MERCHANT')
  const other = await registerUser(app, 'MERCHANT')
  const shop = await installApp(app, merchant, { embeds: [chatWidget(), analyticsScript()] })
  const url = `/merchant/installations/${shop.installed.installationId}/embeds`

  t.test('lists the app’s embeds, disabled with their defaultConfig', async (t) => {
    const response = await app.inject({ url, headers: merchant.auth })
    t.equal(response.statusCode, 200)
    const { installationId, embeds } = response.json()
    t.equal(installationId, shop.installed.installationId)
    t.match(embeds, [
      { embedType: 'analytics', kind: 'GLOBAL_SCRIPT', position: 'head', enabled: false, settings: { siteId: 'default' } },
      { embedType: 'chat', name: 'Chat', kind: 'FLOATING_WIDGET', position: 'bottom_right', enabled: false, settings: { greeting: 'Hi!' }, defaultConfig: { greeting: 'Hi!' } }
    ], 'by embedType')
    t.equal(embeds[1].settingsSchema.type, 'object')
  })

  t.test('enables and configures; unnamed embeds keep theirs', async (t) => {
    let response = await putEmbeds(app, merchant, shop.installed.installationId, { chat: { enabled: true, settings: { greeting: 'Hello there' } } })
    t.equal(response.statusCode, 200, response.body)
    t.match(response.json().embeds, [{ embedType: 'analytics', enabled: false }, { embedType: 'chat', enabled: true, settings: { greeting: 'Hello there' } }])
    response = await putEmbeds(app, merchant, shop.installed.installationId, { analytics: { enabled: true } })
    t.match(response.json().embeds, [{ embedType: 'analytics', enabled: true, settings: { siteId: 'default' } }, { embedType: 'chat', enabled: true, settings: { greeting: 'Hello there' } }])
    response = await putEmbeds(app, merchant, shop.installed.installationId, { chat: { enabled: false } })
    t.match(response.json().embeds[1], { embedType: 'chat', enabled: false, settings: { greeting: 'Hello there' } }, 'disabling keeps the settings')
    t.same((await app.inject({ url, headers: merchant.auth })).json(), response.json(), 'persisted')
  })

  t.test('400 for unknown embeds and bad settings, listing each embed (its first settings problem)', async (t) => {
    const response = await putEmbeds(app, merchant, shop.installed.installationId, {
      popup: { enabled: true }, chat: { enabled: true, settings: { greeting: 5, size: 'xl' } }
    })
    t.equal(response.statusCode, 400)
    t.match(response.json().problems, [/\/embeds\/popup: "popup" is not an active embed/, /\/embeds\/chat\/settings\/size: is not a known field/])
    t.match(response.json().errors, [{ path: '/embeds/popup', code: 'embed_type_inactive' }, { path: '/embeds/chat/settings/size', code: 'field_unknown' }])
    const typed = await putEmbeds(app, merchant, shop.installed.installationId, { chat: { enabled: true, settings: { greeting: 5 } } })
    t.match(typed.json().problems, [/\/embeds\/chat\/settings\/greeting: must be string/])
    t.match(typed.json().errors, [{ path: '/embeds/chat/settings/greeting', message: 'must be string', code: 'field_type' }])
    t.equal((await putEmbeds(app, merchant, shop.installed.installationId, { chat: { enabled: 'yes' } })).statusCode, 400)
    t.equal((await app.inject({ method: 'PUT', url, headers: merchant.auth, payload: {} })).statusCode, 400)
  })

  t.test('a deactivated embed disappears from the list but keeps its data', async (t) => {
    await shop.setManifest({ embeds: [analyticsScript()] })
    t.same((await app.inject({ url, headers: merchant.auth })).json().embeds.map((e: any) => e.embedType), ['analytics'])
    t.equal((await putEmbeds(app, merchant, shop.installed.installationId, { chat: { enabled: true } })).statusCode, 400)
    await shop.setManifest({ embeds: [chatWidget(), analyticsScript()] })
    t.match((await app.inject({ url, headers: merchant.auth })).json().embeds[1], { embedType: 'chat', settings: { greeting: 'Hello there' } })
  })

  t.test('another business’s installation is a 404, and so is an uninstalled one', async (t) => {
    t.equal((await app.inject({ url, headers: other.auth })).statusCode, 404)
    t.equal((await putEmbeds(app, other, shop.installed.installationId, { chat: { enabled: true } })).statusCode, 404)
    t.equal((await app.inject({ url: '/merchant/installations/inst_nope/embeds', headers: merchant.auth })).statusCode, 404)
    await app.inject({ method: 'DELETE', url: `/merchant/installations/${shop.installed.installationId}`, headers: merchant.auth })
    t.equal((await app.inject({ url, headers: merchant.auth })).statusCode, 404)
  })
})
