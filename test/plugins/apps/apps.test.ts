import t from 'tap'
import { eq, sql } from 'drizzle-orm'
import { apps } from '../../../server/db/schema/index.ts'
import { build, registerUser, createApp, appInput } from '../../helper.ts'

t.test('developer portal: /developer/apps', async (t) => {
  const app = await build(t)
  const developer = await registerUser(app, 'DEVELOPER')
  const other = await registerUser(app, 'DEVELOPER')
  const merchant = await registerUser(app, 'MERCHANT')

  t.test('POST /developer/apps returns the app and a secret shown once', async (t) => {
    const input = appInput({ webhookEvents: ['order.created', 'product.updated'], version: '0.1.0' })
    const response = await app.inject({ method: 'POST', url: '/developer/apps', headers: developer.auth, payload: input })
    t.equal(response.statusCode, 201)
    const { app: created, clientSecret } = response.json()
    t.match(clientSecret, /^fbcs_[A-Za-z0-9_-]{43}$/, '32 random bytes behind the prefix')
    t.match(created, {
      id: /^app_/, clientId: /^[0-9a-f]{32}$/, name: input.name, slug: input.slug, category: 'analytics', scopes: input.scopes,
      approvedScopes: [], status: 'DRAFT', isPublished: false, version: '0.1.0', webhookEvents: ['order.created', 'product.updated'],
      screenshots: [], iconUrl: null, reviewNotes: null, manifest: {}
    })
    t.notOk(JSON.stringify(created).includes('fbcs_'), 'the app view never holds the secret')
    const [row] = await app.db.select().from(apps).where(eq(apps.id, created.id))
    t.not(row.clientSecretHash, clientSecret, 'stored only as a hash')
    t.equal(row.clientSecretHash.length, 64)

    const fetched = await app.inject({ method: 'GET', url: `/developer/apps/${created.id}`, headers: developer.auth })
    t.equal(fetched.statusCode, 200)
    t.notOk(fetched.body.includes('fbcs_'))
    t.notOk('clientSecret' in fetched.json())
  })

  t.test('GET /developer/apps lists only my apps, paginated', async (t) => {
    const mine = await registerUser(app, 'DEVELOPER')
    for (let i = 0; i < 3; i++) await createApp(app, mine)
    await createApp(app, other)
    const page = await app.inject({ method: 'GET', url: '/developer/apps?limit=2', headers: mine.auth })
    t.match(page.json(), { total: 3, page: 1, limit: 2 })
    t.equal(page.json().data.length, 2)
    const last = await app.inject({ method: 'GET', url: '/developer/apps?limit=2&page=2', headers: mine.auth })
    t.equal(last.json().data.length, 1)
    const beyond = await app.inject({ method: 'GET', url: '/developer/apps?page=9', headers: mine.auth })
    t.same(beyond.json().data, [])
    t.equal(beyond.json().total, 3)
    const clamped = await app.inject({ method: 'GET', url: '/developer/apps?limit=1000', headers: mine.auth })
    t.equal(clamped.json().limit, 100)
    for (const bad of ['limit=0', 'limit=-1', 'limit=abc', 'page=0']) {
      t.equal((await app.inject({ method: 'GET', url: `/developer/apps?${bad}`, headers: mine.auth })).statusCode, 400, bad)
    }
  })

  t.test('another developer cannot see or touch my app; merchants and strangers are refused', async (t) => {
    const { app: created } = await createApp(app, developer)
    for (const [method, url, payload] of [
      ['GET', `/developer/apps/${created.id}`, undefined],
      ['PATCH', `/developer/apps/${created.id}`, { name: 'Hijacked' }],
      ['POST', `/developer/apps/${created.id}/submit`, undefined],
      ['POST', `/developer/apps/${created.id}/client-secret`, undefined],
      ['PUT', `/developer/apps/${created.id}/manifest`, { manifest: {} }],
      ['GET', `/developer/apps/${created.id}/versions`, undefined]
    ] as const) {
      const response = await app.inject({ method, url, headers: other.auth, payload })
      t.equal(response.statusCode, 404, `${method} ${url} by another developer`)
      t.same(response.json(), { statusCode: 404, error: 'Not Found', message: 'App not found', code: 'app_not_found' })
    }
    t.equal((await app.inject({ method: 'GET', url: '/developer/apps', headers: merchant.auth })).statusCode, 403)
    t.equal((await app.inject({ method: 'POST', url: '/developer/apps', headers: merchant.auth, payload: appInput() })).statusCode, 403)
    t.equal((await app.inject({ method: 'GET', url: '/developer/apps' })).statusCode, 401)
    const [row] = await app.db.select().from(apps).where(eq(apps.id, created.id))
    t.not(row.name, 'Hijacked')
  })

  t.test('POST /developer/apps refuses garbage, writing nothing', async (t) => {
    const cases: Array<[string, Record<string, unknown>, RegExp]> = [
      ['a number as name', { name: 42 }, /name/],
      ['a 10 000-character name', { name: 'x'.repeat(10_000) }, /name/],
      ['an unknown category', { category: 'gambling' }, /category/],
      ['an unknown scope', { scopes: ['read_everything'] }, /scopes/],
      ['no scopes', { scopes: [] }, /scopes/],
      ['a duplicate scope', { scopes: ['read_orders', 'read_orders'] }, /scopes/],
      ['a bad slug', { slug: 'Has Spaces!' }, /slug/],
      ['a redirect URL that is not one', { redirectUrl: 'not a url' }, /redirectUrl/],
      ['a javascript: redirect', { redirectUrl: 'javascript:alert(1)' }, /redirectUrl/],
      ['a webhook URL of another scheme', { webhookUrl: 'ftp://example.com/x' }, /webhookUrl/],
      ['6 screenshots', { screenshots: Array.from({ length: 6 }, (_, i) => `https://cdn.example.com/${i}.png`) }, /screenshots/],
      ['an unknown field', { status: 'APPROVED' }, /additional properties/],
      ['an event outside the scopes', { scopes: ['read_products'], webhookEvents: ['order.created'] }, /order.created \(read_orders\)/],
      ['an event that cannot be subscribed', { webhookEvents: ['webhook.test'] }, /webhookEvents/]
    ]
    const before = await app.db.select({ n: sql<number>`count(*)::int` }).from(apps)
    for (const [name, overrides, message] of cases) {
      const response = await app.inject({ method: 'POST', url: '/developer/apps', headers: developer.auth, payload: appInput(overrides) })
      t.equal(response.statusCode, 400, name)
      t.match(response.json(), { statusCode: 400, error: 'Bad Request', message }, name)
    }
    t.same(await app.db.select({ n: sql<number>`count(*)::int` }).from(apps), before, 'nothing was written')
  })

  t.test('slugs are unique and immutable', async (t) => {
    const { app: created } = await createApp(app, developer)
    const taken = await app.inject({ method: 'POST', url: '/developer/apps', headers: other.auth, payload: appInput({ slug: created.slug }) })
    t.equal(taken.statusCode, 409)
    t.match(taken.json().message, /taken/)
    const patch = await app.inject({ method: 'PATCH', url: `/developer/apps/${created.id}`, headers: developer.auth, payload: { slug: 'new-slug' } })
    t.equal(patch.statusCode, 400)
    t.match(patch.json().message, /slug is immutable/)
  })

  t.test('PATCH /developer/apps/:appId edits a draft', async (t) => {
    const { app: created } = await createApp(app, developer)
    const response = await app.inject({
      method: 'PATCH', url: `/developer/apps/${created.id}`, headers: developer.auth,
      payload: { name: 'Renamed', webhookUrl: null, screenshots: ['https://cdn.example.com/1.png'], version: '1.1.0' }
    })
    t.equal(response.statusCode, 200)
    t.match(response.json(), { name: 'Renamed', webhookUrl: null, screenshots: ['https://cdn.example.com/1.png'], version: '1.1.0', status: 'DRAFT' })
    const empty = await app.inject({ method: 'PATCH', url: `/developer/apps/${created.id}`, headers: developer.auth, payload: {} })
    t.equal(empty.statusCode, 400, 'an empty patch is refused')
    const garbage = await app.inject({ method: 'PATCH', url: `/developer/apps/${created.id}`, headers: developer.auth, payload: { category: 'nope' } })
    t.equal(garbage.statusCode, 400)
  })

  t.test('production mode wants https targets that are not private', async (t) => {
    const prod = await build(t, { env: { PLATFORM_ENV: 'production' } })
    const dev = await registerUser(prod, 'DEVELOPER')
    const post = (overrides: Record<string, unknown>) => prod.inject({ method: 'POST', url: '/developer/apps', headers: dev.auth, payload: appInput(overrides) })
    t.match((await post({ redirectUrl: 'http://app.example.com/cb' })).json(), { statusCode: 400, message: /redirectUrl must use https/ })
    t.match((await post({ webhookUrl: 'http://app.example.com/hooks' })).json(), { statusCode: 400, message: /webhookUrl must use https/ })
    t.match((await post({ webhookUrl: 'https://127.0.0.1/hooks' })).json(), { statusCode: 400, message: /private address/ })
    t.match((await post({ webhookUrl: 'https://10.1.2.3/hooks' })).json(), { statusCode: 400, message: /private address/ })
    t.match((await post({ webhookUrl: 'https://localhost/hooks' })).json(), { statusCode: 400, message: /private address/ })
    t.equal((await post({ webhookUrl: 'https://93.184.216.34/hooks' })).statusCode, 201, 'a public https address is fine')
  })

  t.test('production mode: manifest frames and scripts never point at a private or special-use address', async (t) => {
    const prod = await build(t, { env: { PLATFORM_ENV: 'production' } })
    const dev = await registerUser(prod, 'DEVELOPER')
    const created = (await prod.inject({ method: 'POST', url: '/developer/apps', headers: dev.auth, payload: appInput({ redirectUrl: 'https://93.184.216.34/cb', webhookUrl: 'https://93.184.216.34/hooks' }) })).json().app
    const put = (manifest: unknown) => prod.inject({ method: 'PUT', url: `/developer/apps/${created.id}/manifest`, headers: dev.auth, payload: { manifest } })
    const refused = await put({
      blocks: [{ blockType: 'reviews', name: 'Reviews', renderUrl: 'https://10.0.0.5/blocks/reviews' }],
      embeds: [
        { embedType: 'tracker', name: 'Tracker', kind: 'GLOBAL_SCRIPT', position: 'head', scriptUrl: 'https://localhost/t.js' },
        { embedType: 'chat', name: 'Chat', kind: 'FLOATING_WIDGET', position: 'bottom_right', renderUrl: 'https://[::ffff:192.168.1.1]/chat' }
      ],
      adminPages: [{ pageId: 'dashboard', title: 'Dashboard', renderUrl: 'https://169.254.169.254/latest' }]
    })
    t.equal(refused.statusCode, 400)
    t.same(refused.json().errors.map((e: { path: string }) => e.path).sort(), ['/adminPages/0/renderUrl', '/blocks/0/renderUrl', '/embeds/0/scriptUrl', '/embeds/1/renderUrl'], 'every private target, in one answer')
    t.match(refused.json().message, /private address/)
    const fine = await put({ blocks: [{ blockType: 'reviews', name: 'Reviews', renderUrl: 'https://93.184.216.34/blocks/reviews' }] })
    t.equal(fine.statusCode, 200, 'a public https address is fine')
  })
})
