import t, { type Test } from 'tap'
import { build, registerUser, createApp, publishApp, oauthInstall, loginReviewer, REVIEWER_ENV, type Session } from '../../helper.ts'
import type { App } from '../../../server/app.ts'
import { analyticsScript, chatWidget, createPage, faqBlock, heroBlock, installApp, putBlocks, putEmbeds } from '../storefront/fixtures.ts'

const settingsSchema = { type: 'object', properties: { perPage: { type: 'integer', minimum: 1, maximum: 50 } }, additionalProperties: false }
const manifest = { settingsSchema, blocks: [heroBlock()], embeds: [chatWidget(), analyticsScript()] }

/**
 * A merchant who set the app up (settings, two embeds, the app's hero block on two pages among another
 * app's blocks) and uninstalled it; `reinstall` goes through OAuth again.
 */
async function setUpAndUninstall (t: Test, app: App, merchant: Session) {
  const developer = await registerUser(app, 'DEVELOPER')
  const { app: created, clientSecret } = await createApp(app, developer, { scopes: ['read_business'] })
  const setManifest = async (next: Record<string, unknown>) => {
    const response = await app.inject({ method: 'PUT', url: `/developer/apps/${created.id}/manifest`, headers: developer.auth, payload: { manifest: next } })
    if (response.statusCode !== 200) throw new Error(`manifest failed: ${response.statusCode} ${response.body}`)
  }
  await setManifest(manifest)
  await publishApp(app, developer, created.id)
  const client = { clientId: created.clientId, clientSecret, redirectUrl: created.redirectUrl }
  const first = await oauthInstall(app, merchant, client)
  const other = await installApp(app, merchant, { blocks: [faqBlock()] })

  const settings = await app.inject({ method: 'PUT', url: `/merchant/installations/${first.installationId}/settings`, headers: merchant.auth, payload: { settings: { perPage: 12 } } })
  t.equal(settings.statusCode, 200, settings.body)
  t.equal((await putEmbeds(app, merchant, first.installationId, { chat: { enabled: true, settings: { greeting: 'Welcome back' } }, analytics: { enabled: false, settings: { siteId: 'S-1' } } })).statusCode, 200)
  await createPage(app, merchant, 'about', 'About us')
  const faq = { installationId: other.installed.installationId, blockType: 'faq' }
  t.equal((await putBlocks(app, merchant, 'home', [faq, { installationId: first.installationId, blockType: 'hero', settings: { headline: 'Big sale', color: '#112233' } }, faq])).statusCode, 200)
  t.equal((await putBlocks(app, merchant, 'about', [{ installationId: first.installationId, blockType: 'hero', settings: { headline: 'Our story' } }])).statusCode, 200)

  const uninstalled = await app.inject({ method: 'DELETE', url: `/merchant/installations/${first.installationId}`, headers: merchant.auth })
  t.equal(uninstalled.statusCode, 200)
  const reinstall = async () => await oauthInstall(app, merchant, client)
  return { first, other, setManifest, reinstall }
}

const pageBlocks = async (app: App, merchant: Session, slug: string) =>
  (await app.inject({ url: `/merchant/pages/${slug}`, headers: merchant.auth })).json().blocks as Array<{ installationId: string, blockType: string, settings: Record<string, unknown> }>

t.test('uninstall → reinstall → restore', async (t) => {
  const app = await build(t, { env: REVIEWER_ENV })
  const merchant = await registerUser(app, 'MERCHANT')
  const { other, reinstall } = await setUpAndUninstall(t, app, merchant)
  t.same((await pageBlocks(app, merchant, 'home')).map((b) => b.blockType), ['faq', 'faq'], 'the uninstall took the hero off the page')

  const second = await reinstall()
  const base = `/merchant/installations/${second.installationId}`
  const listed = (await app.inject({ url: '/merchant/installations', headers: merchant.auth })).json().data
  t.match(listed.find((i: any) => i.installationId === second.installationId), { hasPreviousSetup: true }, 'the list flags the offer')
  t.match(listed.find((i: any) => i.installationId === other.installed.installationId), { hasPreviousSetup: false })
  t.same((await app.inject({ url: `${base}/settings`, headers: merchant.auth })).json().settings, {}, 'a reinstall starts from defaults')

  const offer = await app.inject({ url: `${base}/previous-setup`, headers: merchant.auth })
  t.equal(offer.statusCode, 200, offer.body)
  t.match(offer.json(), {
    installationId: second.installationId,
    status: 'OFFERED',
    uninstalledAt: String,
    items: [
      { kind: 'settings', name: 'App settings', skipped: null },
      { kind: 'embed', handle: 'chat', name: 'Chat', enabled: true, skipped: null },
      { kind: 'embed', handle: 'analytics', enabled: false, skipped: null },
      { kind: 'block', handle: 'hero', name: 'Hero banner', page: { slug: 'home', title: String }, position: 1, skipped: null },
      { kind: 'block', handle: 'hero', page: { slug: 'about', title: 'About us' }, position: 0, skipped: null }
    ]
  })

  const restored = await app.inject({ method: 'POST', url: `${base}/restore-setup`, headers: merchant.auth })
  t.equal(restored.statusCode, 200, restored.body)
  t.equal(restored.json().status, 'RESTORED')
  t.same(restored.json().items.map((item: any) => item.skipped), [null, null, null, null, null], 'everything matched')

  t.same((await app.inject({ url: `${base}/settings`, headers: merchant.auth })).json().settings, { perPage: 12 }, 'settings are back')
  t.match((await app.inject({ url: `${base}/embeds`, headers: merchant.auth })).json().embeds, [
    { embedType: 'analytics', enabled: false, settings: { siteId: 'S-1' } },
    { embedType: 'chat', enabled: true, settings: { greeting: 'Welcome back' } }
  ], 'embeds are back, on or off as they were')
  const home = await pageBlocks(app, merchant, 'home')
  t.same(home.map((b) => b.blockType), ['faq', 'hero', 'faq'], 'the block stands where it stood')
  t.match(home[1], { installationId: second.installationId, settings: { headline: 'Big sale', color: '#112233' } }, 'on the new installation, with its settings')
  t.match(await pageBlocks(app, merchant, 'about'), [{ installationId: second.installationId, blockType: 'hero', settings: { headline: 'Our story' } }])

  const storefront = (await app.inject({ url: '/merchant/installations', headers: merchant.auth })).json().data
  t.match(storefront.find((i: any) => i.installationId === second.installationId), { hasPreviousSetup: false }, 'the offer is gone')
  t.match((await app.inject({ url: `${base}/previous-setup`, headers: merchant.auth })).json(), { status: 'RESTORED', items: [] })

  const twice = await app.inject({ method: 'POST', url: `${base}/restore-setup`, headers: merchant.auth })
  t.equal(twice.statusCode, 409, 'restoring twice is refused')
  t.equal(twice.json().code, 'previous_setup_resolved')
  t.same((await pageBlocks(app, merchant, 'home')).map((b) => b.blockType), ['faq', 'hero', 'faq'], 'and adds nothing')
})

t.test('what no longer matches the app is skipped and reported', async (t) => {
  const app = await build(t, { env: REVIEWER_ENV })
  const merchant = await registerUser(app, 'MERCHANT')
  const { setManifest, reinstall } = await setUpAndUninstall(t, app, merchant)
  // the app changed while it was gone: no hero block, perPage at most 10, the chat greeting a number
  await setManifest({
    settingsSchema: { ...settingsSchema, properties: { perPage: { type: 'integer', minimum: 1, maximum: 10 } } },
    embeds: [{ ...chatWidget(), settingsSchema: { type: 'object', properties: { greeting: { type: 'number' } } }, defaultConfig: { greeting: 1 } }, analyticsScript()]
  })
  const deleted = await app.inject({ method: 'DELETE', url: '/merchant/pages/about', headers: merchant.auth })
  t.equal(deleted.statusCode, 204)
  const second = await reinstall()
  const base = `/merchant/installations/${second.installationId}`

  const offer = (await app.inject({ url: `${base}/previous-setup`, headers: merchant.auth })).json()
  t.match(offer.items, [
    { kind: 'settings', skipped: { code: 'settings_invalid', message: /perPage/ } },
    { kind: 'embed', handle: 'chat', skipped: { code: 'settings_invalid', message: /greeting/ } },
    { kind: 'embed', handle: 'analytics', skipped: null },
    { kind: 'block', handle: 'hero', name: 'Hero banner', page: { slug: 'home' }, skipped: { code: 'extension_gone', message: 'The app no longer has this block' } },
    { kind: 'block', handle: 'hero', page: { slug: 'about' }, skipped: { code: 'extension_gone' } }
  ])

  const restored = await app.inject({ method: 'POST', url: `${base}/restore-setup`, headers: merchant.auth })
  t.equal(restored.statusCode, 200, restored.body)
  t.same(restored.json().items.map((item: any) => item.skipped?.code ?? null), ['settings_invalid', 'settings_invalid', null, 'extension_gone', 'extension_gone'])
  t.same((await app.inject({ url: `${base}/settings`, headers: merchant.auth })).json().settings, {}, 'invalid settings were not written')
  t.match((await app.inject({ url: `${base}/embeds`, headers: merchant.auth })).json().embeds, [
    { embedType: 'analytics', enabled: false, settings: { siteId: 'S-1' } },
    { embedType: 'chat', enabled: false, settings: { greeting: 1 } }
  ], 'only the embed that still matches came back')
  t.same((await pageBlocks(app, merchant, 'home')).map((b) => b.blockType), ['faq', 'faq'], 'no block of a type the app dropped')
})

t.test('a page gone since the uninstall is reported, the rest restored', async (t) => {
  const app = await build(t, { env: REVIEWER_ENV })
  const merchant = await registerUser(app, 'MERCHANT')
  const { reinstall } = await setUpAndUninstall(t, app, merchant)
  t.equal((await app.inject({ method: 'DELETE', url: '/merchant/pages/about', headers: merchant.auth })).statusCode, 204)
  const second = await reinstall()
  const restored = await app.inject({ method: 'POST', url: `/merchant/installations/${second.installationId}/restore-setup`, headers: merchant.auth })
  t.match(restored.json().items.slice(3), [{ page: { slug: 'home' }, skipped: null }, { page: { slug: 'about' }, skipped: { code: 'page_gone' } }])
  t.same((await pageBlocks(app, merchant, 'home')).map((b) => b.blockType), ['faq', 'hero', 'faq'])
})

t.test('dismissing, other businesses, roles', async (t) => {
  const app = await build(t, { env: REVIEWER_ENV })
  const merchant = await registerUser(app, 'MERCHANT')
  const { reinstall } = await setUpAndUninstall(t, app, merchant)
  const second = await reinstall()
  const base = `/merchant/installations/${second.installationId}`

  const stranger = await registerUser(app, 'MERCHANT')
  for (const [method, path] of [['GET', 'previous-setup'], ['POST', 'restore-setup'], ['POST', 'dismiss-previous-setup']] as const) {
    const response = await app.inject({ method, url: `${base}/${path}`, headers: stranger.auth })
    t.equal(response.statusCode, 404, `${method} ${path}: another business's installation`)
    t.equal(response.json().code, 'installation_not_found')
    t.equal((await app.inject({ method, url: `${base}/${path}` })).statusCode, 401, `${method} ${path}: signed out`)
  }
  const reviewer = await loginReviewer(app)
  const refused = await app.inject({ method: 'POST', url: `${base}/restore-setup`, headers: reviewer.auth })
  t.equal(refused.statusCode, 403, 'a reviewer is no merchant')
  const developer = await registerUser(app, 'DEVELOPER')
  t.equal((await app.inject({ url: `${base}/previous-setup`, headers: developer.auth })).statusCode, 404, 'a developer without this installation sees nothing')

  const dismissed = await app.inject({ method: 'POST', url: `${base}/dismiss-previous-setup`, headers: merchant.auth })
  t.equal(dismissed.statusCode, 200, dismissed.body)
  t.match(dismissed.json(), { status: 'DISMISSED', items: [] })
  const after = await app.inject({ method: 'POST', url: `${base}/restore-setup`, headers: merchant.auth })
  t.equal(after.statusCode, 409, 'restoring after a dismissal is refused')
  t.equal(after.json().code, 'previous_setup_resolved')
  t.equal((await app.inject({ method: 'POST', url: `${base}/dismiss-previous-setup`, headers: merchant.auth })).statusCode, 409)
  t.same((await app.inject({ url: `${base}/settings`, headers: merchant.auth })).json().settings, {}, 'nothing was restored')
})

t.test('a first install has nothing to restore', async (t) => {
  const app = await build(t, { env: REVIEWER_ENV })
  const merchant = await registerUser(app, 'MERCHANT')
  const shop = await installApp(app, merchant, manifest)
  const base = `/merchant/installations/${shop.installed.installationId}`
  t.match((await app.inject({ url: `${base}/previous-setup`, headers: merchant.auth })).json(), { status: 'NONE', previousInstallationId: null, items: [] })
  const restore = await app.inject({ method: 'POST', url: `${base}/restore-setup`, headers: merchant.auth })
  t.equal(restore.statusCode, 404)
  t.equal(restore.json().code, 'previous_setup_not_found')
})
