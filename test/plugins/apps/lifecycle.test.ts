import t from 'tap'
import { build, listen, registerUser, appInput, REVIEWER_ENV, loginReviewer } from '../../helper.ts'

t.test('app lifecycle over real HTTP', async (t) => {
  const app = await build(t, { env: REVIEWER_ENV })
  const base = await listen(app)
  const developer = await registerUser(app, 'DEVELOPER')
  const reviewer = await loginReviewer(app)
  const call = async (method: string, path: string, auth: { authorization: string } | null, body?: unknown) => {
    const response = await fetch(`${base}${path}`, {
      method,
      headers: { ...(auth ?? {}), ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body)
    })
    return { status: response.status, body: await response.json() as any }
  }

  t.test('create → edit → submit → edit refused → reject → edit → resubmit → approve → listed', async (t) => {
    const input = appInput({ name: 'Loyalty Stars', category: 'loyalty' })
    const created = await call('POST', '/developer/apps', developer.auth, input)
    t.equal(created.status, 201)
    t.match(created.body.clientSecret, /^fbcs_/, 'secret shown once at creation')
    const id = created.body.app.id

    t.equal((await call('PATCH', `/developer/apps/${id}`, developer.auth, { description: 'Points for every order.' })).status, 200)
    const submitted = await call('POST', `/developer/apps/${id}/submit`, developer.auth)
    t.equal(submitted.body.status, 'PENDING_REVIEW')
    t.equal((await call('POST', `/developer/apps/${id}/submit`, developer.auth)).status, 409, 'cannot submit twice')

    const refused = await call('PATCH', `/developer/apps/${id}`, developer.auth, { name: 'Sneaky edit' })
    t.equal(refused.status, 409)
    t.match(refused.body, { statusCode: 409, error: 'Conflict', message: /pending review/ })
    t.equal((await call('PUT', `/developer/apps/${id}/manifest`, developer.auth, { manifest: {} })).status, 409, 'manifest frozen too')

    const queue = await call('GET', '/review/apps', reviewer.auth)
    t.ok(queue.body.data.some((a: { id: string }) => a.id === id), 'in the review queue')
    t.equal((await call('POST', `/review/apps/${id}/reject`, reviewer.auth, {})).status, 400, 'a rejection needs notes')
    const rejected = await call('POST', `/review/apps/${id}/reject`, reviewer.auth, { notes: 'Add a privacy policy link.' })
    t.match(rejected.body, { status: 'DRAFT', reviewNotes: 'Add a privacy policy link.', isPublished: false })
    t.equal((await call('GET', `/marketplace/apps/${input.slug}`, null)).status, 404, 'a draft is not in the marketplace')

    t.equal((await call('PATCH', `/developer/apps/${id}`, developer.auth, { description: 'Points for every order. Privacy: https://x.example' })).status, 200)
    t.equal((await call('POST', `/developer/apps/${id}/submit`, developer.auth)).body.status, 'PENDING_REVIEW')
    const approved = await call('POST', `/review/apps/${id}/approve`, reviewer.auth, {})
    t.match(approved.body, { status: 'APPROVED', isPublished: true, approvedScopes: input.scopes, reviewNotes: null })
    t.equal((await call('POST', `/review/apps/${id}/approve`, reviewer.auth, {})).status, 409, 'only pending apps can be approved')

    const listed = await call('GET', '/marketplace/apps?category=loyalty', null)
    t.ok(listed.body.data.some((a: { slug: string }) => a.slug === input.slug), 'in the marketplace')
    const detail = await call('GET', `/marketplace/apps/${input.slug}`, null)
    t.match(detail.body, { name: 'Loyalty Stars', scopes: input.scopes, installCount: 0, developerName: 'Test DEVELOPER' })

    const history = await call('GET', `/developer/apps/${id}/versions`, developer.auth)
    t.same(history.body.data.map((v: { kind: string }) => v.kind), ['APPROVED', 'SUBMITTED', 'REJECTED', 'SUBMITTED'])
  })

  t.test('a second developer cannot see it; a merchant cannot call the portal or the review queue', async (t) => {
    const { body } = await call('POST', '/developer/apps', developer.auth, appInput())
    const stranger = await registerUser(app, 'DEVELOPER')
    const merchant = await registerUser(app, 'MERCHANT')
    t.equal((await call('GET', `/developer/apps/${body.app.id}`, stranger.auth)).status, 404)
    t.equal((await call('GET', '/developer/apps', merchant.auth)).status, 403)
    t.equal((await call('GET', '/review/apps', merchant.auth)).status, 403)
    t.equal((await call('POST', `/review/apps/${body.app.id}/approve`, developer.auth, {})).status, 403, 'developers cannot approve their own apps')
  })

  t.test('versioning of an approved app', async (t) => {
    const input = appInput({ scopes: ['read_products'] })
    const { body } = await call('POST', '/developer/apps', developer.auth, input)
    const id = body.app.id
    await call('POST', `/developer/apps/${id}/submit`, developer.auth)
    await call('POST', `/review/apps/${id}/approve`, reviewer.auth, { notes: 'Welcome!' })

    const live = await call('PATCH', `/developer/apps/${id}`, developer.auth, { version: '1.1.0', description: 'Now faster.' })
    t.match(live.body, { status: 'APPROVED', version: '1.1.0', description: 'Now faster.' }, 'an edit without new scopes applies at once')
    const afterLive = await call('GET', `/developer/apps/${id}/versions`, developer.auth)
    t.match(afterLive.body.data[0], { kind: 'UPDATED', version: '1.1.0', changes: ['version', 'description'] })

    const expanded = await call('PATCH', `/developer/apps/${id}`, developer.auth, { scopes: ['read_products', 'read_orders'], version: '2.0.0' })
    t.match(expanded.body, { status: 'DRAFT', isPublished: true, scopes: ['read_products', 'read_orders'], approvedScopes: ['read_products'] })
    const listing = await call('GET', `/marketplace/apps/${input.slug}`, null)
    t.same(listing.body.scopes, ['read_products'], 'the live listing keeps its approved scopes')

    await call('POST', `/developer/apps/${id}/submit`, developer.auth)
    const queued = await call('GET', '/review/apps', reviewer.auth)
    t.same(queued.body.data.find((a: { id: string }) => a.id === id).addedScopes, ['read_orders'], 'the reviewer sees what is added')
    const rejected = await call('POST', `/review/apps/${id}/reject`, reviewer.auth, { notes: 'Explain why you need orders.' })
    t.match(rejected.body, { status: 'DRAFT', isPublished: true, approvedScopes: ['read_products'] }, 'a rejected update does not unpublish')
    t.equal((await call('GET', `/marketplace/apps/${input.slug}`, null)).status, 200)

    await call('POST', `/developer/apps/${id}/submit`, developer.auth)
    const approved = await call('POST', `/review/apps/${id}/approve`, reviewer.auth, {})
    t.match(approved.body, { status: 'APPROVED', approvedScopes: ['read_products', 'read_orders'], version: '2.0.0' })
    t.same((await call('GET', `/marketplace/apps/${input.slug}`, null)).body.scopes, ['read_products', 'read_orders'])

    const reverted = await call('PATCH', `/developer/apps/${id}`, developer.auth, { scopes: ['read_products', 'read_orders', 'read_reviews'] })
    t.equal(reverted.body.status, 'DRAFT')
    const back = await call('PATCH', `/developer/apps/${id}`, developer.auth, { scopes: ['read_products'] })
    t.equal(back.body.status, 'APPROVED', 'dropping the added scope needs no review')
  })
})
