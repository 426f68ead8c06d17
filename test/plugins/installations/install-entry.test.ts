import t from 'tap'
import { eq } from 'drizzle-orm'
import { oauthCodes } from '../../../server/db/schema/index.ts'
import { build, createApp, oauthInstall, publishApp, registerUser, REVIEWER_ENV } from '../../helper.ts'

t.test('appUrl: the install entry (DESIGN §15)', async (t) => {
  const app = await build(t, { env: REVIEWER_ENV })
  const developer = await registerUser(app, 'DEVELOPER')
  const { app: created } = await createApp(app, developer, { appUrl: 'https://app.example.com/install' })
  t.equal(created.appUrl, 'https://app.example.com/install')
  const { app: none } = await createApp(app, developer)
  t.equal(none.appUrl, null, 'optional')

  const patch = async (appUrl: unknown) => await app.inject({ method: 'PATCH', url: `/developer/apps/${none.id}`, headers: developer.auth, payload: { appUrl } })
  for (const [name, value, message] of [
    ['a platform origin', 'http://localhost:3000/install', /body\/appUrl must not point at the platform/],
    ['the storefront origin', 'http://127.0.0.1:3001/x', /body\/appUrl must not point at the platform/],
    ['not a URL', 'install here', /body\/appUrl must be an absolute URL/],
    ['javascript:', 'javascript:alert(1)', /body\/appUrl must be an http\(s\) URL/],
    ['a fragment', 'https://app.example.com/#x', /body\/appUrl must not contain a fragment/]
  ] as const) {
    const response = await patch(value)
    t.equal(response.statusCode, 400, name)
    t.match(response.json().message, message, name)
  }
  t.equal((await patch('https://other.example.com/start')).json().appUrl, 'https://other.example.com/start')
  t.equal((await patch(null)).json().appUrl, null, 'removable')

  await publishApp(app, developer, created.id)
  const listing = await app.inject({ url: `/marketplace/apps/${created.slug}` })
  t.equal(listing.json().appUrl, 'https://app.example.com/install', 'the listing carries it')
  t.equal((await app.inject({ url: '/marketplace/apps' })).json().data[0].appUrl, 'https://app.example.com/install')
})

t.test('GET /merchant/installations lists an approved install the app has not finished', async (t) => {
  const app = await build(t, { env: REVIEWER_ENV })
  const developer = await registerUser(app, 'DEVELOPER')
  const merchant = await registerUser(app, 'MERCHANT')
  const { app: created, clientSecret } = await createApp(app, developer, { scopes: ['read_business'], appUrl: 'https://app.example.com/install' })
  await publishApp(app, developer, created.id)
  const list = async (session = merchant) => (await app.inject({ url: '/merchant/installations', headers: session.auth })).json().data

  t.same(await list(), [], 'nothing before consent')
  const consent = await app.inject({
    method: 'POST', url: '/oauth/authorize', headers: merchant.auth,
    payload: { client_id: created.clientId, redirect_uri: created.redirectUrl, response_type: 'code', decision: 'approve' }
  })
  t.equal(consent.statusCode, 200)
  t.match(await list(), [{
    status: 'PENDING', installationId: null, appId: created.id, businessId: merchant.businessId, requestedScopes: ['read_business'],
    app: { id: created.id, name: created.name, slug: created.slug, appUrl: 'https://app.example.com/install' }
  }], 'at once, as finishing install')
  t.same(await list(await registerUser(app, 'MERCHANT')), [], "not on another merchant's list")

  // ten minutes on, the code is dead: said plainly
  await app.db.update(oauthCodes).set({ expiresAt: new Date(Date.now() - 1000) }).where(eq(oauthCodes.appId, created.id))
  t.match(await list(), [{ status: 'EXPIRED', appId: created.id }])
  // a day after expiry it leaves the list
  await app.db.update(oauthCodes).set({ expiresAt: new Date(Date.now() - 25 * 60 * 60 * 1000) }).where(eq(oauthCodes.appId, created.id))
  t.same(await list(), [])

  // exchanged: one ACTIVE entry, no PENDING beside it
  const installed = await oauthInstall(app, merchant, { clientId: created.clientId, clientSecret, redirectUrl: created.redirectUrl })
  const after = await list()
  t.equal(after.length, 1)
  t.match(after[0], { status: 'ACTIVE', installationId: installed.installationId, app: { appUrl: 'https://app.example.com/install' } })

  // an installed app asked again (an update) stays ACTIVE only
  await app.inject({ method: 'POST', url: '/oauth/authorize', headers: merchant.auth, payload: { client_id: created.clientId, redirect_uri: created.redirectUrl, response_type: 'code', decision: 'approve' } })
  t.same((await list()).map((item: { status: string }) => item.status), ['ACTIVE'])
})

t.test('GET /merchant/installations/blocks: the picker', async (t) => {
  const app = await build(t, { env: REVIEWER_ENV })
  const developer = await registerUser(app, 'DEVELOPER')
  const merchant = await registerUser(app, 'MERCHANT')
  const { app: created, clientSecret } = await createApp(app, developer, { scopes: ['read_business'], category: 'marketing' })
  const blocks = [
    { blockType: 'hero', name: 'Hero', description: 'Big headline', iconName: 'star', category: 'banners', renderUrl: 'https://app.example.com/hero', defaultConfig: {} },
    { blockType: 'faq', name: 'FAQ', renderUrl: 'https://app.example.com/faq' }
  ]
  await app.inject({ method: 'PUT', url: `/developer/apps/${created.id}/manifest`, headers: developer.auth, payload: { manifest: { blocks } } })
  await publishApp(app, developer, created.id)
  t.same((await app.inject({ url: '/merchant/installations/blocks', headers: merchant.auth })).json(), { data: [] }, 'nothing installed, nothing to place')
  const installed = await oauthInstall(app, merchant, { clientId: created.clientId, clientSecret, redirectUrl: created.redirectUrl })

  const listed = (await app.inject({ url: '/merchant/installations/blocks', headers: merchant.auth })).json().data
  t.match(listed, [
    { installationId: installed.installationId, blockType: 'faq', name: 'FAQ', description: '', iconName: null, category: 'marketing', app: { id: created.id, name: created.name } },
    { blockType: 'hero', description: 'Big headline', iconName: 'star', category: 'banners', settingsSchema: null, defaultConfig: {} }
  ], "the block's category, else its app's")
  t.same((await app.inject({ url: '/merchant/installations/blocks', headers: (await registerUser(app, 'MERCHANT')).auth })).json(), { data: [] }, 'per business')
  t.equal((await app.inject({ url: '/merchant/installations/blocks' })).statusCode, 401)

  // a block the manifest drops is no longer offered; placed, it stays in the page and the page still saves
  await app.inject({ method: 'POST', url: '/merchant/pages', headers: merchant.auth, payload: { slug: 'landing', title: 'Landing' } })
  const placed = [{ id: 'b-faq', installationId: installed.installationId, blockType: 'faq' }, { id: 'b-hero', installationId: installed.installationId, blockType: 'hero' }]
  t.equal((await app.inject({ method: 'PUT', url: '/merchant/pages/landing/blocks', headers: merchant.auth, payload: { blocks: placed } })).statusCode, 200)
  await app.inject({ method: 'PUT', url: `/developer/apps/${created.id}/manifest`, headers: developer.auth, payload: { manifest: { blocks: [blocks[0]] } } })
  t.same((await app.inject({ url: '/merchant/installations/blocks', headers: merchant.auth })).json().data.map((b: { blockType: string }) => b.blockType), ['hero'])
  const page = (await app.inject({ url: '/merchant/pages/landing', headers: merchant.auth })).json()
  t.same(page.blocks.map((b: { id: string }) => b.id), ['b-faq', 'b-hero'], 'the inactive block stays in the page data')
  const reordered = await app.inject({ method: 'PUT', url: '/merchant/pages/landing/blocks', headers: merchant.auth, payload: { blocks: [page.blocks[1], page.blocks[0]] } })
  t.equal(reordered.statusCode, 200, 'a page keeping its inactive block still saves')
  const changed = await app.inject({ method: 'PUT', url: '/merchant/pages/landing/blocks', headers: merchant.auth, payload: { blocks: [{ ...page.blocks[0], settings: { x: 1 } }] } })
  t.equal(changed.statusCode, 400, 'but it cannot be changed')
  const added = await app.inject({ method: 'PUT', url: '/merchant/pages/landing/blocks', headers: merchant.auth, payload: { blocks: [{ installationId: installed.installationId, blockType: 'faq' }] } })
  t.equal(added.statusCode, 400, 'nor placed again')
  t.equal((await app.inject({ method: 'PUT', url: '/merchant/pages/landing/blocks', headers: merchant.auth, payload: { blocks: [page.blocks[1]] } })).statusCode, 200, 'removing it works')

  // uninstall takes the app's blocks off the pages (spec)
  t.equal((await app.inject({ method: 'DELETE', url: `/merchant/installations/${installed.installationId}`, headers: merchant.auth })).statusCode, 200)
  t.same((await app.inject({ url: '/merchant/pages/landing', headers: merchant.auth })).json().blocks, [], 'uninstall removed its blocks')
  t.same((await app.inject({ url: '/merchant/installations/blocks', headers: merchant.auth })).json(), { data: [] })
})

t.test('a developer acts as the merchant of their sandbox on /merchant routes, and only there', async (t) => {
  const app = await build(t, { env: REVIEWER_ENV })
  const developer = await registerUser(app, 'DEVELOPER')
  const merchant = await registerUser(app, 'MERCHANT')
  const { app: created } = await createApp(app, developer, { scopes: ['read_business'] })
  const blocks = [{ blockType: 'hero', name: 'Hero', renderUrl: 'https://app.example.com/hero' }]
  await app.inject({ method: 'PUT', url: `/developer/apps/${created.id}/manifest`, headers: developer.auth, payload: { manifest: { blocks } } })
  const test = await app.inject({ method: 'POST', url: `/developer/apps/${created.id}/test-install`, headers: developer.auth })
  t.equal(test.statusCode, 201)
  const installationId = test.json().installationId

  const business = (await app.inject({ url: '/merchant/business', headers: developer.auth })).json()
  t.equal(business.id, developer.businessId, 'their sandbox business')
  t.match((await app.inject({ url: '/merchant/installations', headers: developer.auth })).json().data, [{ status: 'ACTIVE', installationId, isTestInstall: true }])
  t.match((await app.inject({ url: '/merchant/installations/blocks', headers: developer.auth })).json().data, [{ installationId, blockType: 'hero' }])
  const pages = (await app.inject({ url: '/merchant/pages', headers: developer.auth })).json()
  t.ok(pages.total > 0, 'the sandbox sample pages')
  const slug = pages.data[0].slug
  const saved = await app.inject({ method: 'PUT', url: `/merchant/pages/${slug}/blocks`, headers: developer.auth, payload: { blocks: [{ id: 'dev-hero', installationId, blockType: 'hero' }] } })
  t.equal(saved.statusCode, 200, 'they place their block on their sandbox page')
  t.equal((await app.inject({ method: 'POST', url: `/merchant/pages/${slug}/preview`, headers: developer.auth, payload: { blocks: [] } })).statusCode, 200)

  // and nothing of anyone else's
  t.equal((await app.inject({ url: `/merchant/installations/${installationId}/embeds`, headers: merchant.auth })).statusCode, 404, "a merchant cannot reach the developer's sandbox install")
  await app.inject({ method: 'POST', url: '/merchant/pages', headers: merchant.auth, payload: { slug: 'only-mine', title: 'Mine' } })
  t.equal((await app.inject({ url: '/merchant/pages/only-mine', headers: developer.auth })).statusCode, 404, "the developer cannot reach a merchant's page")
  const reviewer = (await app.inject({ method: 'POST', url: '/auth/login', payload: { email: REVIEWER_ENV.REVIEWER_EMAIL, password: REVIEWER_ENV.REVIEWER_PASSWORD } })).json()
  t.equal((await app.inject({ url: '/merchant/pages', headers: { authorization: `Bearer ${reviewer.token as string}` } })).statusCode, 403, 'reviewers have no business')
})

t.test('GET /developer/apps/:appId/test-status: installUrl, where the portal\'s Test install goes (DESIGN §22)', async (t) => {
  const app = await build(t)
  const developer = await registerUser(app, 'DEVELOPER')
  const me = (await app.inject({ url: '/auth/me', headers: developer.auth })).json()
  const { app: entry } = await createApp(app, developer, { appUrl: 'https://app.example.com/install?from=portal' })
  const status = (await app.inject({ url: `/developer/apps/${entry.id}/test-status`, headers: developer.auth })).json()
  const url = new URL(status.installUrl)
  t.equal(url.origin + url.pathname, 'https://app.example.com/install', 'the App URL')
  t.same(Object.fromEntries(url.searchParams), { from: 'portal', businessId: developer.businessId, business: me.business.slug }, 'with the sandbox, as the marketplace sends a merchant\'s business')
  const { app: none } = await createApp(app, developer)
  t.equal((await app.inject({ url: `/developer/apps/${none.id}/test-status`, headers: developer.auth })).json().installUrl, null, 'no App URL: none (the credentials are shown once)')
})
