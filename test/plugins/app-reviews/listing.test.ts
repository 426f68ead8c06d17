import t from 'tap'
import { build, loginReviewer, registerUser, REVIEWER_ENV } from '../../helper.ts'
import { TestClock } from '../../clock.ts'
import { installedBy, listedApp, review } from './helpers.ts'

const ENV = { ...REVIEWER_ENV, APP_REVIEW_MIN_INSTALL_HOURS: '0' }

t.test('the marketplace: ratings, the public list and its sorts, hidden reviews left out', async (t) => {
  const clock = new TestClock()
  const app = await build(t, { env: ENV, clock })
  const token = `rv${process.pid}`
  const listed = await listedApp(app, { name: `Alpha ${token}` })
  // one after another: registrations made at once may race for the same business slug
  const rated = []
  for (let i = 0; i < 3; i++) rated.push((await installedBy(app, listed)).merchant)
  const reviews = []
  for (const [i, rating] of [5, 1, 4].entries()) {
    reviews.push(await review(app, rated[i], listed.appId, rating, `Review ${rating}`))
    clock.advance(60_000)
  }
  const get = async (url: string) => (await app.inject({ url })).json()

  t.same((await get(`/marketplace/apps/${listed.slug}`)).rating, { average: 3.3, count: 3, distribution: { 1: 1, 2: 0, 3: 0, 4: 1, 5: 1 } }, 'the average rounded to one decimal')

  const reviewer = await loginReviewer(app)
  const hide = (id: string, payload: Record<string, unknown>) => app.inject({ method: 'POST', url: `/review/app-reviews/${id}/hide`, headers: reviewer.auth, payload })
  t.equal((await hide(reviews[1].id, {})).json().code, 'validation_failed', 'no reason: 400')
  t.equal((await hide(reviews[1].id, { reason: '   ' })).statusCode, 400, 'a blank reason: 400')
  t.equal((await app.inject({ method: 'POST', url: `/review/app-reviews/${reviews[1].id}/hide`, headers: rated[0].auth, payload: { reason: 'x' } })).statusCode, 403, 'a merchant cannot hide')
  t.equal((await hide('arv_unknown', { reason: 'Abuse' })).statusCode, 404)
  const hidden = await hide(reviews[1].id, { reason: 'Insults the developer' })
  t.equal(hidden.statusCode, 200)
  t.match(hidden.json(), { id: reviews[1].id, hidden: { reason: 'Insults the developer' } })

  const moderated = await app.inject({ url: `/review/apps/${listed.appId}/app-reviews`, headers: reviewer.auth })
  t.equal(moderated.statusCode, 200)
  t.same(moderated.json().data.map((r: { id: string, hidden: unknown }) => [r.id, r.hidden !== null]), [[reviews[2].id, false], [reviews[1].id, true], [reviews[0].id, false]], 'the reviewer\'s list: newest first, the hidden one marked')
  t.equal((await app.inject({ url: `/review/apps/${listed.appId}/app-reviews`, headers: rated[0].auth })).statusCode, 403, 'a merchant cannot list them')

  const detail = await get(`/marketplace/apps/${listed.slug}`)
  t.same(detail.rating, { average: 4.5, count: 2, distribution: { 1: 0, 2: 0, 3: 0, 4: 1, 5: 1 } }, 'the hidden review leaves the average and the distribution')
  t.same((await get(`/marketplace/apps?q=${token}`)).data[0].rating, detail.rating, 'the list items carry the rating too')

  const recent = await get(`/marketplace/apps/${listed.slug}/reviews?sort=recent`)
  t.same(recent.data.map((r: { rating: number }) => r.rating), [4, 5], 'recent: newest first, the hidden one left out')
  t.match(recent, { total: 2, page: 1, limit: 20 })
  t.same(Object.keys(recent.data[0]).sort(), ['appId', 'body', 'createdAt', 'id', 'rating', 'reply', 'updatedAt'], 'public fields only')
  t.same((await get(`/marketplace/apps/${listed.slug}/reviews?sort=rating`)).data.map((r: { rating: number }) => r.rating), [5, 4], 'rating: highest first')
  t.same((await get(`/marketplace/apps/${listed.slug}/reviews?limit=1&page=2`)).data.map((r: { rating: number }) => r.rating), [5], 'paginated')
  t.equal((await app.inject({ url: '/marketplace/apps/no-such-app/reviews' })).statusCode, 404)
  t.equal((await app.inject({ url: `/marketplace/apps/${listed.slug}/reviews?sort=worst` })).statusCode, 400)

  // the marketplace's sorts: a second app with more installs and no review, a third rated 5 by one business
  const busy = await listedApp(app, { name: `beta ${token}` })
  for (let i = 0; i < 4; i++) await installedBy(app, busy)
  const top = await listedApp(app, { name: `Gamma ${token}` })
  await review(app, (await installedBy(app, top)).merchant, top.appId, 5)
  const order = async (sort: string) => (await get(`/marketplace/apps?q=${token}&sort=${sort}`)).data.map((a: { slug: string }) => a.slug)
  t.same(await order('rating'), [top.slug, listed.slug, busy.slug], 'rating: highest average first, unrated last')
  t.same(await order('installs'), [busy.slug, listed.slug, top.slug], 'installs: most live installs first')
  t.same(await order('name'), [listed.slug, busy.slug, top.slug], 'name: A to Z, whatever the case')
  t.same(await order('newest'), [top.slug, busy.slug, listed.slug], 'newest: latest published first')
  const paged = await get(`/marketplace/apps?q=${token}&sort=installs&limit=1&page=2`)
  t.match(paged, { total: 3, page: 2, limit: 1 })
  t.same(paged.data.map((a: { slug: string }) => a.slug), [listed.slug], 'a figure sort is paginated too')
})

t.test('the developer: lists the reviews of their app and answers each once', async (t) => {
  const clock = new TestClock()
  const app = await build(t, { env: ENV, clock })
  const listed = await listedApp(app)
  const other = await listedApp(app)
  const first = await review(app, (await installedBy(app, listed)).merchant, listed.appId, 2, 'Slow')
  clock.advance(60_000)
  const second = await review(app, (await installedBy(app, listed)).merchant, listed.appId, 5, 'Fast')
  const foreign = await review(app, (await installedBy(app, other)).merchant, other.appId, 3)
  const answer = (appId: string, id: string, developer = listed.developer, payload: Record<string, unknown> = { body: 'Thanks, fixed in 1.2' }) =>
    app.inject({ method: 'PUT', url: `/developer/apps/${appId}/app-reviews/${id}/reply`, headers: developer.auth, payload })

  const list = await app.inject({ url: `/developer/apps/${listed.appId}/app-reviews`, headers: listed.developer.auth })
  t.equal(list.statusCode, 200)
  t.same(list.json().data.map((r: { id: string }) => r.id), [second.id, first.id], 'newest first')
  t.ok(list.json().data.every((r: { businessName: unknown }) => typeof r.businessName === 'string' && r.businessName !== ''), 'each with its business\'s name')
  t.equal((await app.inject({ url: `/developer/apps/${listed.appId}/app-reviews`, headers: other.developer.auth })).statusCode, 404, 'another developer\'s app: 404')

  t.equal((await answer(listed.appId, first.id, listed.developer, {})).statusCode, 400, 'an answer needs a body')
  const replied = await answer(listed.appId, first.id)
  t.equal(replied.statusCode, 200)
  t.match(replied.json().reply, { body: 'Thanks, fixed in 1.2', createdAt: String })
  const again = await answer(listed.appId, first.id, listed.developer, { body: 'Once more' })
  t.equal(again.statusCode, 409)
  t.equal(again.json().code, 'reply_exists', 'a second answer: 409')
  t.equal((await answer(listed.appId, foreign.id)).statusCode, 404, 'a review of another app: 404')
  t.equal((await answer(other.appId, foreign.id)).statusCode, 404, 'through another developer\'s app: 404')
  const merchant = await registerUser(app, 'MERCHANT')
  t.equal((await answer(listed.appId, second.id, merchant)).statusCode, 403, 'a merchant cannot answer')

  const shown = (await app.inject({ url: `/marketplace/apps/${listed.slug}/reviews?sort=rating` })).json().data
  t.same(shown.map((r: { reply: unknown }) => r.reply === null ? null : (r.reply as { body: string }).body), [null, 'Thanks, fixed in 1.2'], 'the public review shows its answer')
})
