import t from 'tap'
import { build, loginReviewer, registerUser, REVIEWER_ENV } from '../../helper.ts'
import { eventsOf, newMerchant } from './fixtures.ts'

t.test('merchant pages', async (t) => {
  const app = await build(t, { env: REVIEWER_ENV })
  const merchant = await newMerchant(app)
  const other = await newMerchant(app)
  const call = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: object, session = merchant) =>
    app.inject({ method, url, headers: session.auth, ...(payload !== undefined ? { payload } : {}) })

  t.test('a new business starts with a published, empty home page: merchant and developer sandbox', async (t) => {
    for (const session of [merchant, await registerUser(app, 'DEVELOPER')]) {
      const list = (await call('GET', '/merchant/pages', undefined, session)).json()
      t.match(list.data.filter((p: { slug: string }) => p.slug === 'home'), [{ slug: 'home', title: 'Home', isPublished: true, blocks: [] }], 'one home page')
      t.equal((await call('GET', '/merchant/pages/home', undefined, session)).statusCode, 200, 'the theme editor can open it')
    }
    t.equal((await call('POST', '/merchant/pages', { slug: 'home', title: 'Again' })).statusCode, 409, 'and it takes the slug')
  })

  t.test('POST, GET, PATCH, DELETE /merchant/pages/:slug', async (t) => {
    const created = await call('POST', '/merchant/pages', { slug: 'landing', title: 'Landing' })
    t.equal(created.statusCode, 201)
    t.match(created.json(), { id: /^page_/, slug: 'landing', title: 'Landing', isPublished: true, blocks: [] })
    t.same(Object.keys(created.json()).sort(), ['blocks', 'id', 'isPublished', 'slug', 'title', 'updatedAt'])
    t.equal((await call('POST', '/merchant/pages', { slug: 'landing', title: 'Again' })).statusCode, 409, 'slug taken')
    t.equal((await call('POST', '/merchant/pages', { slug: 'landing', title: 'Theirs' }, other)).statusCode, 201, 'slugs are per business')
    t.same((await call('GET', '/merchant/pages/landing')).json(), created.json())
    const patched = await call('PATCH', '/merchant/pages/landing', { title: 'Welcome', isPublished: false, slug: 'welcome' })
    t.equal(patched.statusCode, 200)
    t.match(patched.json(), { slug: 'welcome', title: 'Welcome', isPublished: false })
    t.equal((await call('GET', '/merchant/pages/landing')).statusCode, 404)
    await call('POST', '/merchant/pages', { slug: 'about', title: 'About' })
    t.equal((await call('PATCH', '/merchant/pages/about', { slug: 'welcome' })).statusCode, 409, 're-slug onto a taken slug')
    t.equal((await call('DELETE', '/merchant/pages/about')).statusCode, 204)
    t.equal((await call('DELETE', '/merchant/pages/about')).statusCode, 404)
    t.same(await eventsOf(app, merchant.businessId), [], 'pages emit no webhook events')
  })

  t.test('validation: bad slugs, long titles, unknown fields, blocks are not writable here', async (t) => {
    const cases: Array<[string, object]> = [
      ['an uppercase slug', { slug: 'Home', title: 'x' }],
      ['a slug with a slash', { slug: 'a/b', title: 'x' }],
      ['a 10 000-character title', { slug: 'long', title: 't'.repeat(10_000) }],
      ['blocks', { slug: 'blocks', title: 'x', blocks: [] }],
      ['isPublished as text', { slug: 'text', title: 'x', isPublished: 'yes' }]
    ]
    for (const [name, body] of cases) t.equal((await call('POST', '/merchant/pages', body)).statusCode, 400, name)
    t.equal((await call('PATCH', '/merchant/pages/welcome', {})).statusCode, 400, 'an empty patch')
    t.equal((await call('GET', '/merchant/pages/NOT_A_SLUG')).statusCode, 400)
  })

  t.test("GET /merchant/pages lists only the merchant's pages, paginated", async (t) => {
    for (const slug of ['a', 'b', 'c']) await call('POST', '/merchant/pages', { slug, title: slug.toUpperCase() })
    const list = (await call('GET', '/merchant/pages?limit=2')).json()
    t.match(list, { total: 5, page: 1, limit: 2 })
    t.same(list.data.map((p: { slug: string }) => p.slug), ['c', 'b'])
    t.equal((await call('GET', '/merchant/pages?limit=1000')).json().limit, 100)
    t.equal((await call('GET', '/merchant/pages', undefined, other)).json().total, 2)
    t.equal((await call('PATCH', '/merchant/pages/a', { title: 'Mine' }, other)).statusCode, 404, "another merchant's page is 404")
    t.equal((await call('DELETE', '/merchant/pages/a', undefined, other)).statusCode, 404)
    t.equal((await call('GET', '/merchant/pages/a')).json().title, 'A')
    t.equal((await app.inject({ method: 'GET', url: '/merchant/pages' })).statusCode, 401)
    t.equal((await call('GET', '/merchant/pages', undefined, await loginReviewer(app))).statusCode, 403, 'a reviewer has no business')
    const developer = await registerUser(app, 'DEVELOPER')
    t.equal((await call('GET', '/merchant/pages/a', undefined, developer)).statusCode, 404, 'a developer reaches their sandbox only')
  })
})
