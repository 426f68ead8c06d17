import t from 'tap'
import { build, registerUser, createApp, loginReviewer, REVIEWER_ENV } from '../../helper.ts'

t.test('/review/apps', async (t) => {
  const app = await build(t, { env: REVIEWER_ENV })
  const developer = await registerUser(app, 'DEVELOPER')
  const reviewer = await loginReviewer(app)
  const submit = async () => {
    const { app: created } = await createApp(app, developer)
    await app.inject({ method: 'PUT', url: `/developer/apps/${created.id}/manifest`, headers: developer.auth, payload: { manifest: { adminPages: [{ pageId: 'home', title: 'Home', renderUrl: 'https://app.example.com/admin' }] } } })
    await app.inject({ method: 'POST', url: `/developer/apps/${created.id}/submit`, headers: developer.auth })
    return created
  }
  const first = await submit()
  const second = await submit()
  const draft = (await createApp(app, developer)).app

  t.test('GET /review/apps lists pending apps, oldest submission first', async (t) => {
    const response = await app.inject({ method: 'GET', url: '/review/apps', headers: reviewer.auth })
    t.equal(response.statusCode, 200)
    const ids = response.json().data.map((a: { id: string }) => a.id)
    t.same(ids, [first.id, second.id])
    t.notOk(ids.includes(draft.id))
    const drafts = await app.inject({ method: 'GET', url: '/review/apps?status=DRAFT', headers: reviewer.auth })
    t.ok(drafts.json().data.some((a: { id: string }) => a.id === draft.id))
    t.equal((await app.inject({ method: 'GET', url: '/review/apps?status=SOMETHING', headers: reviewer.auth })).statusCode, 400)
  })

  t.test('GET /review/apps/:appId shows the manifest to review', async (t) => {
    const response = await app.inject({ method: 'GET', url: `/review/apps/${first.id}`, headers: reviewer.auth })
    t.match(response.json(), { id: first.id, status: 'PENDING_REVIEW', manifest: { adminPages: [{ pageId: 'home' }] }, addedScopes: ['read_products', 'read_orders'] })
    t.equal((await app.inject({ method: 'GET', url: '/review/apps/app_missing', headers: reviewer.auth })).statusCode, 404)
  })

  t.test('approve takes optional notes; reject requires them; neither works on a draft', async (t) => {
    const approved = await app.inject({ method: 'POST', url: `/review/apps/${first.id}/approve`, headers: reviewer.auth, payload: { notes: 'Nice work' } })
    t.match(approved.json(), { status: 'APPROVED', reviewNotes: 'Nice work', isPublished: true })
    const blank = await app.inject({ method: 'POST', url: `/review/apps/${second.id}/reject`, headers: reviewer.auth, payload: { notes: '' } })
    t.equal(blank.statusCode, 400)
    t.equal((await app.inject({ method: 'POST', url: `/review/apps/${draft.id}/approve`, headers: reviewer.auth })).statusCode, 409)
    t.equal((await app.inject({ method: 'POST', url: `/review/apps/${draft.id}/reject`, headers: reviewer.auth, payload: { notes: 'x' } })).statusCode, 409)
    t.equal((await app.inject({ method: 'POST', url: '/review/apps/app_missing/approve', headers: reviewer.auth })).statusCode, 404)
  })

  t.test('only reviewers', async (t) => {
    t.equal((await app.inject({ method: 'GET', url: '/review/apps', headers: developer.auth })).statusCode, 403)
    t.equal((await app.inject({ method: 'GET', url: '/review/apps' })).statusCode, 401)
  })
})
