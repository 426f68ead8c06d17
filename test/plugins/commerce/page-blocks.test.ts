import t from 'tap'
import { build, registerUser, REVIEWER_ENV } from '../../helper.ts'
// the storefront's fixtures: apps with blocks and embeds installed on a business
import { createPage, faqBlock, heroBlock, installApp, putBlocks } from '../storefront/fixtures.ts'

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
    const { message, problems, code, errors } = response.json()
    t.match(message, /^Invalid blocks: /)
    t.equal(code, 'validation_failed')
    // each problem names its field, so the theme editor marks it (#29 item 5)
    t.match(errors, [
      { in: 'body', path: '/blocks/0/installationId', code: 'installation_not_found', message: /no active installation/ },
      { path: '/blocks/1/installationId', code: 'installation_not_found' },
      { path: '/blocks/2/blockType', code: 'block_type_inactive' },
      { path: /^\/blocks\/3\/settings/, code: /^field_/ },
      { path: '/blocks/4/id', code: 'block_id_duplicate' },
      { path: '/blocks/4/settings', code: 'settings_none' }
    ])
    t.match(problems, [
      /\/blocks\/0\/installationId: no active installation "inst_unknown"/,
      /\/blocks\/1\/installationId: no active installation/,
      /\/blocks\/2\/blockType: "carousel" is not an active block/,
      // an app's settings schema is checked without allErrors (DESIGN §21): a block's settings report their first problem
      /\/blocks\/3\/settings(\/\w+)?: (is not a known field|must match format "color"|must be string)/,
      /\/blocks\/4\/id: duplicate block id "dup"/,
      /\/blocks\/4\/settings: this extension has no settings/
    ])
    t.equal(problems.length, 6)
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
    // every business has a home page: another merchant's own page is the one to try
    await createPage(app, merchant, 'only-mine', 'Mine')
    t.equal((await putBlocks(app, other, 'only-mine', [])).statusCode, 404, 'another merchant’s page is not found')
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
