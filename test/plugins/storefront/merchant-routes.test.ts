import t from 'tap'
import { build, registerUser, REVIEWER_ENV } from '../../helper.ts'
import { analyticsScript, chatWidget, createPage, faqBlock, heroBlock, installApp, putBlocks, putEmbeds } from './fixtures.ts'

t.test('PUT /merchant/pages/:slug/blocks', async (t) => {
  const app = await build(t, { env: REVIEWER_ENV })
  const merchant = await registerUser(app, 'MERCHANT')
  const other = await registerUser(app, 'MERCHANT')
  const shop = await installApp(app, merchant, { blocks: [heroBlock(), faqBlock()] })
  const foreign = await installApp(app, other, { blocks: [heroBlock()] })
  await createPage(app, merchant, 'home', 'Home')
  const inst = shop.installed.installationId

  t.test('stores the blocks in order, generating missing ids and applying defaultConfig', async (t) => {
    const response = await putBlocks(app, merchant, 'home', [
      { installationId: inst, blockType: 'faq' },
      { id: 'hero-1', installationId: inst, blockType: 'hero', settings: { headline: 'Fresh bread' } },
      { installationId: inst, blockType: 'hero' }
    ])
    t.equal(response.statusCode, 200, response.body)
    const page = response.json()
    t.same(page.blocks.map((b: any) => b.blockType), ['faq', 'hero', 'hero'])
    t.match(page.blocks[0].id, /^blk_[a-z0-9]+$/)
    t.equal(page.blocks[1].id, 'hero-1')
    t.same(page.blocks[1].settings, { headline: 'Fresh bread' }, 'given settings are kept as sent')
    t.same(page.blocks[2].settings, { headline: 'Welcome', color: '#336699' }, 'omitted settings are the defaultConfig')
    t.same(page.blocks[0].settings, {})
    const again = await app.inject({ url: '/merchant/pages/home', headers: merchant.auth })
    t.same(again.json().blocks, page.blocks, 'persisted')
  })

  t.test('lists every problem in one 400 and changes nothing', async (t) => {
    const before = (await app.inject({ url: '/merchant/pages/home', headers: merchant.auth })).json().blocks
    const response = await putBlocks(app, merchant, 'home', [
      { installationId: 'inst_unknown', blockType: 'hero' },
      { installationId: foreign.installed.installationId, blockType: 'hero' },
      { installationId: inst, blockType: 'carousel' },
      { id: 'dup', installationId: inst, blockType: 'hero', settings: { headline: 42, color: 'red', extra: true } },
      { id: 'dup', installationId: inst, blockType: 'faq', settings: { anything: 1 } }
    ])
    t.equal(response.statusCode, 400)
    const { message, problems } = response.json()
    t.match(message, /^Invalid blocks: /)
    t.match(problems, [
      /\/blocks\/0\/installationId: no active installation "inst_unknown"/,
      /\/blocks\/1\/installationId: no active installation/,
      /\/blocks\/2\/blockType: "carousel" is not an active block/,
      /\/blocks\/3\/settings: unknown property "extra"/,
      /\/blocks\/3\/settings\/color: must match format "color"/,
      /\/blocks\/3\/settings\/headline: must be string/,
      /\/blocks\/4\/id: duplicate block id "dup"/,
      /\/blocks\/4\/settings: this extension has no settings/
    ])
    t.equal(problems.length, 8)
    t.same((await app.inject({ url: '/merchant/pages/home', headers: merchant.auth })).json().blocks, before)
  })

  t.test('a deactivated block type can no longer be placed', async (t) => {
    await shop.setManifest({ blocks: [heroBlock()] })
    const response = await putBlocks(app, merchant, 'home', [{ installationId: inst, blockType: 'faq' }])
    t.equal(response.statusCode, 400)
    t.match(response.json().problems, [/"faq" is not an active block/])
    await shop.setManifest({ blocks: [heroBlock(), faqBlock()] })
    t.equal((await putBlocks(app, merchant, 'home', [{ installationId: inst, blockType: 'faq' }])).statusCode, 200, 'and can again once re-activated')
  })

  t.test('refuses bad bodies, unknown pages and other roles', async (t) => {
    t.equal((await putBlocks(app, merchant, 'home', [{ installationId: inst, blockType: 'hero', color: 'x' }])).statusCode, 400, 'unknown field')
    t.equal((await putBlocks(app, merchant, 'home', [{ id: 'has space', installationId: inst, blockType: 'hero' }])).statusCode, 400, 'bad id')
    t.equal((await app.inject({ method: 'PUT', url: '/merchant/pages/home/blocks', headers: merchant.auth, payload: { blocks: 'x' } })).statusCode, 400)
    t.equal((await putBlocks(app, merchant, 'nope', [])).statusCode, 404)
    t.equal((await putBlocks(app, other, 'home', [])).statusCode, 404, 'another merchant’s page is not found')
    // the developer acts on their sandbox: this merchant's installation is unknown there
    t.equal((await putBlocks(app, shop.developer, 'home', [{ installationId: inst, blockType: 'hero' }])).statusCode, 400)
    t.equal((await app.inject({ method: 'PUT', url: '/merchant/pages/home/blocks', payload: { blocks: [] } })).statusCode, 401)
  })

  t.test('an uninstalled app’s blocks cannot be placed', async (t) => {
    const gone = await installApp(app, merchant, { blocks: [faqBlock()] })
    await app.inject({ method: 'DELETE', url: `/merchant/installations/${gone.installed.installationId}`, headers: merchant.auth })
    const response = await putBlocks(app, merchant, 'home', [{ installationId: gone.installed.installationId, blockType: 'faq' }])
    t.equal(response.statusCode, 400)
    t.match(response.json().problems, [/no active installation/])
  })
})

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

  t.test('400 for unknown embeds and bad settings, listing each', async (t) => {
    const response = await putEmbeds(app, merchant, shop.installed.installationId, {
      popup: { enabled: true }, chat: { enabled: true, settings: { greeting: 5, size: 'xl' } }
    })
    t.equal(response.statusCode, 400)
    t.match(response.json().problems, [/\/embeds\/popup: "popup" is not an active embed/, /\/embeds\/chat\/settings: unknown property "size"/, /\/embeds\/chat\/settings\/greeting: must be string/])
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
