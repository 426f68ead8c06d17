import t from 'tap'
import { build, registerUser, createApp, loginReviewer, publishApp, REVIEWER_ENV, portsOf } from '../../helper.ts'

t.test('the review record: changes requested, replies, history and the diff against the approved version', async (t) => {
  const app = await build(t, { env: REVIEWER_ENV })
  const developer = await registerUser(app, 'DEVELOPER', { name: 'Dana Dev' })
  const stranger = await registerUser(app, 'DEVELOPER')
  const reviewer = await loginReviewer(app)
  const { app: created } = await createApp(app, developer, { name: 'Stamp Card', scopes: ['read_orders'] })
  const url = `/developer/apps/${created.id}`
  const call = async (method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE', path: string, who = developer, payload?: Record<string, unknown>) =>
    await app.inject({ method, url: path, headers: who.auth, payload })

  t.test('POST …/review-replies before any decision is a 409: nothing to answer yet', async (t) => {
    const early = await call('POST', `${url}/review-replies`, developer, { body: 'Hello?' })
    t.equal(early.statusCode, 409)
  })

  t.test('a rejection marks the app "changes requested" until it is submitted again', async (t) => {
    await call('PUT', `${url}/manifest`, developer, { manifest: { adminPages: [{ pageId: 'home', title: 'Home', renderUrl: 'https://app.example.com/admin' }] } })
    await call('POST', `${url}/submit`)
    await portsOf(app).appChecks.idle()
    const rejected = await call('POST', `/review/apps/${created.id}/reject`, reviewer, { notes: 'Add a privacy policy link.' })
    t.match(rejected.json(), { status: 'DRAFT', changesRequested: true })
    const listed = (await call('GET', '/developer/apps')).json().data.find((a: { id: string }) => a.id === created.id)
    t.match(listed, { status: 'DRAFT', changesRequested: true }, 'the portal list can say so')
  })

  t.test('the developer replies; the reviewer sees the thread and answers', async (t) => {
    const blank = await call('POST', `${url}/review-replies`, developer, { body: '   ' })
    t.equal(blank.statusCode, 400, 'a blank reply is refused')
    t.equal((await call('POST', `${url}/review-replies`, stranger, { body: 'hi' })).statusCode, 404, "another developer's app is a 404")
    const reply = await call('POST', `${url}/review-replies`, developer, { body: 'The link is in the app settings page now.' })
    t.equal(reply.statusCode, 201)
    t.match(reply.json(), { kind: 'REPLY', notes: 'The link is in the app settings page now.', author: { name: 'Dana Dev', role: 'DEVELOPER' } })
    const answer = await call('POST', `/review/apps/${created.id}/replies`, reviewer, { body: 'Thanks, resubmit when ready.' })
    t.match(answer.json(), { kind: 'REPLY', author: { name: 'Reviewer', role: 'REVIEWER' } })
    t.equal((await call('POST', `/review/apps/${created.id}/replies`, developer, { body: 'x' })).statusCode, 403, 'the reviewer route is for reviewers')

    const history = (await call('GET', `/review/apps/${created.id}/history`, reviewer)).json()
    t.equal(history.total, 4)
    t.same(history.data.map((e: { kind: string }) => e.kind), ['REPLY', 'REPLY', 'REJECTED', 'SUBMITTED'], 'newest first')
    t.match(history.data[2], { notes: 'Add a privacy policy link.', author: { role: 'REVIEWER', name: 'Reviewer' }, version: '1.0.0' })
    t.match(history.data[3], { author: { role: 'DEVELOPER', name: 'Dana Dev' } })
    const mine = (await call('GET', `${url}/review-history?limit=2`)).json()
    t.match(mine, { total: 4, limit: 2, page: 1 })
    t.same(mine.data.map((e: { notes: string }) => e.notes), ['Thanks, resubmit when ready.', 'The link is in the app settings page now.'], 'the developer sees the same thread')
    t.equal((await call('GET', `/developer/apps/${created.id}/review-history`, stranger)).statusCode, 404)
  })

  t.test('GET /review/apps/:appId/diff: no baseline before an approval, then the approved snapshot beside the submission', async (t) => {
    const first = (await call('GET', `/review/apps/${created.id}/diff`, reviewer)).json()
    t.equal(first.baseline, null, 'never approved')
    t.match(first.current, { name: 'Stamp Card', scopes: ['read_orders'], manifest: { adminPages: [{ pageId: 'home' }] } })
    await publishApp(app, developer, created.id)
    t.match((await call('GET', url)).json(), { status: 'APPROVED', changesRequested: false })

    await call('PATCH', url, developer, { scopes: ['read_orders', 'read_products'], description: 'Stamps for every order.' })
    await call('PUT', `${url}/manifest`, developer, { manifest: { adminPages: [{ pageId: 'home', title: 'Stamps', renderUrl: 'https://app.example.com/admin' }] } })
    await call('POST', `${url}/submit`)
    await portsOf(app).appChecks.idle()
    const diff = (await call('GET', `/review/apps/${created.id}/diff`, reviewer)).json()
    t.match(diff.baseline, { version: '1.0.0', approvedAt: String, snapshot: { scopes: ['read_orders'], manifest: { adminPages: [{ title: 'Home' }] } } })
    t.match(diff.current, { scopes: ['read_orders', 'read_products'], description: 'Stamps for every order.', manifest: { adminPages: [{ title: 'Stamps' }] } })
    t.notOk('clientSecretHash' in diff.current, 'only listing fields and the manifest')
    t.equal((await call('GET', '/review/apps/app_missing/diff', reviewer)).statusCode, 404)
    t.equal((await call('GET', `/review/apps/${created.id}/diff`, developer)).statusCode, 403)
  })
})

t.test('DELETE /developer/apps/:appId deletes a draft, its test install and its credentials', async (t) => {
  const app = await build(t, { env: REVIEWER_ENV })
  const developer = await registerUser(app, 'DEVELOPER')
  const other = await registerUser(app, 'DEVELOPER')
  const { app: draft } = await createApp(app, developer)
  const test = (await app.inject({ method: 'POST', url: `/developer/apps/${draft.id}/test-install`, headers: developer.auth })).json()
  t.equal((await app.inject({ url: '/app-api/products', headers: { authorization: `Bearer ${test.accessToken}` } })).statusCode, 200, 'the test token works before')

  t.equal((await app.inject({ method: 'DELETE', url: `/developer/apps/${draft.id}`, headers: other.auth })).statusCode, 404, "another developer's app is a 404")
  const deleted = await app.inject({ method: 'DELETE', url: `/developer/apps/${draft.id}`, headers: developer.auth })
  t.equal(deleted.statusCode, 204)
  t.equal((await app.inject({ url: `/developer/apps/${draft.id}`, headers: developer.auth })).statusCode, 404, 'gone')
  t.equal((await app.inject({ url: '/app-api/products', headers: { authorization: `Bearer ${test.accessToken}` } })).statusCode, 401, 'its test token is revoked')
  const installs = (await app.inject({ url: '/merchant/installations', headers: developer.auth })).json().data
  t.notOk(installs.some((i: { appId: string }) => i.appId === draft.id), 'the sandbox no longer lists it')
  const slugAgain = await createApp(app, developer, { slug: draft.slug })
  t.equal(slugAgain.app.slug, draft.slug, 'its slug is free again')

  const published = (await createApp(app, developer)).app
  await publishApp(app, developer, published.id)
  const refused = await app.inject({ method: 'DELETE', url: `/developer/apps/${published.id}`, headers: developer.auth })
  t.equal(refused.statusCode, 409, 'a published app stays')
  const pending = (await createApp(app, developer)).app
  await app.inject({ method: 'POST', url: `/developer/apps/${pending.id}/submit`, headers: developer.auth })
  await portsOf(app).appChecks.idle()
  t.equal((await app.inject({ method: 'DELETE', url: `/developer/apps/${pending.id}`, headers: developer.auth })).statusCode, 409, 'so does one under review')
})
