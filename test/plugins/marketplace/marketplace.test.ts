import t from 'tap'
import { build, registerUser, createApp, publishApp, REVIEWER_ENV } from '../../helper.ts'

t.test('GET /marketplace/apps', async (t) => {
  const app = await build(t, { env: REVIEWER_ENV })
  const developer = await registerUser(app, 'DEVELOPER')
  const token = `mk${process.pid}`
  const make = async (overrides: Record<string, unknown>, publish = true) => {
    const { app: created } = await createApp(app, developer, overrides)
    if (publish) await publishApp(app, developer, created.id)
    return created
  }
  const shipping = await make({ name: `Ship ${token} Fast`, category: 'shipping', description: 'Rates from 5 carriers' })
  const loyalty = await make({ name: `Stars ${token}`, category: 'loyalty', description: `Earn 100% more ${token} points` })
  const draft = await make({ name: `Draft ${token}`, category: 'shipping' }, false)
  const pending = await make({ name: `Pending ${token}`, category: 'shipping' }, false)
  await app.inject({ method: 'POST', url: `/developer/apps/${pending.id}/submit`, headers: developer.auth })
  const list = async (query: string) => (await app.inject({ method: 'GET', url: `/marketplace/apps?${query}` })).json()

  t.test('lists published apps only, newest first, with public fields', async (t) => {
    const body = await list(`q=${token}`)
    t.same(body.data.map((a: { slug: string }) => a.slug), [loyalty.slug, shipping.slug])
    t.equal(body.total, 2)
    const [first] = body.data
    t.same(Object.keys(first).sort(), ['appUrl', 'category', 'clientId', 'description', 'developerName', 'iconUrl', 'id', 'installCount', 'name', 'pricing', 'publishedAt', 'rating', 'scopes', 'screenshots', 'slug', 'version'])
    t.notOk(JSON.stringify(body).includes('redirect'), 'no private fields')
  })

  t.test('filters by category and searches name and description', async (t) => {
    t.same((await list(`q=${token}&category=shipping`)).data.map((a: { id: string }) => a.id), [shipping.id])
    t.same((await list(`q=${encodeURIComponent('5 carriers')}`)).data.map((a: { id: string }) => a.id), [shipping.id])
    t.same((await list(`q=${encodeURIComponent(`100% more ${token}`)}`)).data.map((a: { id: string }) => a.id), [loyalty.id], '% is literal text')
    t.equal((await list(`q=${token}_x`)).total, 0, '_ is literal text')
    t.equal((await app.inject({ method: 'GET', url: '/marketplace/apps?category=gambling' })).statusCode, 400)
  })

  t.test('paginates', async (t) => {
    const page = await list(`q=${token}&limit=1&page=2`)
    t.match(page, { total: 2, page: 2, limit: 1 })
    t.same(page.data.map((a: { id: string }) => a.id), [shipping.id])
    t.equal((await list('limit=500')).limit, 100)
  })

  t.test('GET /marketplace/apps/:slug shows a published app; drafts and pending apps are 404', async (t) => {
    const detail = await app.inject({ method: 'GET', url: `/marketplace/apps/${shipping.slug}` })
    t.equal(detail.statusCode, 200)
    t.match(detail.json(), { id: shipping.id, installCount: 0, scopes: ['read_products', 'read_orders'] })
    for (const hidden of [draft, pending]) {
      const response = await app.inject({ method: 'GET', url: `/marketplace/apps/${hidden.slug}` })
      t.equal(response.statusCode, 404)
      t.same(response.json(), { statusCode: 404, error: 'Not Found', message: 'App not found', code: 'app_not_found' })
    }
  })
})
