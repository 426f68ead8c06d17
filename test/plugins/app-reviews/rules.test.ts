import t from 'tap'
import { build, registerUser, REVIEWER_ENV } from '../../helper.ts'
import { TestClock } from '../../clock.ts'
import { DAY_MS, HOUR_MS, installedBy, listedApp, putReview, review } from './helpers.ts'

t.test('PUT /merchant/apps/:appId/review: who may review', async (t) => {
  const clock = new TestClock()
  const app = await build(t, { env: REVIEWER_ENV, clock })
  const listed = await listedApp(app)
  const { merchant } = await installedBy(app, listed)
  const stranger = await registerUser(app, 'MERCHANT')

  const refused = async (what: string, session: typeof merchant, appId = listed.appId) => {
    const response = await putReview(app, session, appId, { rating: 5, body: 'Great' })
    t.equal(response.statusCode, 403, what)
    t.equal(response.json().code, 'review_not_allowed', what)
  }

  await refused('an installation younger than 24 hours', merchant)
  await refused('a business without the app', stranger)
  await refused('an unknown app', merchant, 'app_unknown')

  // a young installation uninstalled early never grows old enough (installed and uninstalled before the clock moves)
  const { merchant: brief, installed: briefInstall } = await installedBy(app, listed)
  await app.inject({ method: 'DELETE', url: `/merchant/installations/${briefInstall.installationId}`, headers: brief.auth })

  // the developer's sandbox holds a test install of the app
  const sandbox = await app.inject({ method: 'POST', url: `/developer/apps/${listed.appId}/test-install`, headers: listed.developer.auth })
  t.equal(sandbox.statusCode, 201, 'test-installed on the sandbox')

  clock.advance(25 * HOUR_MS)
  const written = await putReview(app, merchant, listed.appId, { rating: 4, body: 'Does the job' })
  t.equal(written.statusCode, 200, 'allowed once the installation is 24 hours old')
  t.match(written.json(), { appId: listed.appId, rating: 4, body: 'Does the job', reply: null, hidden: null })
  await refused('a test install, however old', listed.developer)
  await refused('an installation uninstalled before it was 24 hours old', brief)

  // an uninstalled installation entitles its business for 90 days after the uninstall
  const { merchant: former, installed } = await installedBy(app, listed)
  clock.advance(25 * HOUR_MS)
  const gone = await app.inject({ method: 'DELETE', url: `/merchant/installations/${installed.installationId}`, headers: former.auth })
  t.ok(gone.statusCode < 300, 'uninstalled')
  clock.advance(89 * DAY_MS)
  t.equal((await putReview(app, former, listed.appId, { rating: 2 })).statusCode, 200, '89 days after the uninstall')
  clock.advance(2 * DAY_MS)
  await refused('91 days after the uninstall', former)
})

t.test('PUT and DELETE /merchant/apps/:appId/review: one review per business, edited, withdrawn, private to it', async (t) => {
  const app = await build(t, { env: { ...REVIEWER_ENV, APP_REVIEW_MIN_INSTALL_HOURS: '0' } })
  const listed = await listedApp(app)
  const { merchant } = await installedBy(app, listed)
  const { merchant: other } = await installedBy(app, listed)
  const mine = (session: typeof merchant) => app.inject({ url: `/merchant/apps/${listed.appId}/review`, headers: session.auth })

  const first = await review(app, merchant, listed.appId, 3, 'OK')
  const edited = await review(app, merchant, listed.appId, 5, 'Better after the update')
  t.equal(edited.id, first.id, 'an edit keeps the review')
  t.match((await mine(merchant)).json(), { review: { id: first.id, rating: 5, body: 'Better after the update' } })
  const publicList = (await app.inject({ url: `/marketplace/apps/${listed.slug}/reviews` })).json()
  t.equal(publicList.total, 1, 'still one review of the business')

  t.same((await mine(other)).json(), { review: null }, 'another business does not see it as its own')
  t.equal((await app.inject({ method: 'DELETE', url: `/merchant/apps/${listed.appId}/review`, headers: other.auth })).statusCode, 404, 'nor withdraws it')
  t.equal((await mine(merchant)).json().review.id, first.id, 'still there')

  t.equal((await app.inject({ method: 'DELETE', url: `/merchant/apps/${listed.appId}/review`, headers: merchant.auth })).statusCode, 204, 'withdrawn')
  const gone = await mine(merchant)
  t.equal(gone.statusCode, 200)
  t.same(gone.json(), { review: null }, 'none any more')
  t.equal((await app.inject({ url: `/marketplace/apps/${listed.slug}/reviews` })).json().total, 0)
  t.equal((await app.inject({ method: 'DELETE', url: `/merchant/apps/${listed.appId}/review`, headers: merchant.auth })).statusCode, 404, 'withdrawn once')
})

t.test('PUT /merchant/apps/:appId/review refuses bad input with a code and writes nothing', async (t) => {
  const app = await build(t, { env: { ...REVIEWER_ENV, APP_REVIEW_MIN_INSTALL_HOURS: '0' } })
  const listed = await listedApp(app)
  const { merchant } = await installedBy(app, listed)
  const cases: Array<[string, Record<string, unknown>, string]> = [
    ['a rating of 0', { rating: 0 }, '/rating'],
    ['a rating of 6', { rating: 6 }, '/rating'],
    ['a rating of 2.5', { rating: 2.5 }, '/rating'],
    ['no rating', { body: 'Nice' }, '/rating'],
    ['a body over 2 000 characters', { rating: 4, body: 'x'.repeat(2001) }, '/body']
  ]
  for (const [what, payload, path] of cases) {
    const response = await putReview(app, merchant, listed.appId, payload)
    t.equal(response.statusCode, 400, what)
    t.equal(response.json().code, 'validation_failed', what)
    t.match(response.json().errors, [{ path }], what)
  }
  t.same((await app.inject({ url: `/merchant/apps/${listed.appId}/review`, headers: merchant.auth })).json(), { review: null }, 'nothing written')
  t.equal((await putReview(app, merchant, listed.appId, { rating: 4, body: 'x'.repeat(2000) })).statusCode, 200, '2 000 characters are fine')
})
