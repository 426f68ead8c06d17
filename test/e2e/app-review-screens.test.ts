import t, { type Test } from 'tap'
import { sql } from 'drizzle-orm'
import type { Page } from 'playwright-core'
import { build, listen, loginReviewer, oauthInstall, registerUser, REVIEWER_ENV } from '../helper.ts'
import { listedApp, review, type ListedApp } from '../plugins/app-reviews/helpers.ts'
import { fitsWidth, launch, logIn, screenshot, seriousAxeViolations } from './browser.ts'

const WIDTHS = [1280, 390]

/** Each screen at 1280 and 390 px: no sideways scroll, no serious axe finding, and a screenshot to look at. */
async function lookAt (t: Test, page: Page, name: string): Promise<void> {
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: 900 })
    t.ok(await fitsWidth(page), `${name} at ${width}: no sideways scroll`)
    t.same((await seriousAxeViolations(page)).map((v) => `${v.id}: ${v.nodes.join(', ')}`), [], `${name} at ${width}: no serious axe violation`)
    await screenshot(page, `app-reviews-${name}-${width}`)
  }
  await page.setViewportSize({ width: WIDTHS[0], height: 900 })
}

/** A merchant of a named business (one after another: registrations at once may race for a slug) with the app installed for real. */
async function installedBy (app: Awaited<ReturnType<typeof build>>, listed: ListedApp, businessName: string) {
  const merchant = await registerUser(app, 'MERCHANT', { businessName })
  await oauthInstall(app, merchant, listed.client)
  return { merchant }
}

/** The card of one app on the marketplace home. */
const card = (page: Page, name: string) => page.getByTestId('app-card').filter({ hasText: name })
/** The apps of the home's grid, in order, by name. */
const cardNames = async (page: Page) => (await page.getByTestId('app-card').allInnerTexts()).map((text) => /Apex Alerts|Route Rocket/.exec(text)?.[0])

t.test('reviews of apps in Chromium: a merchant rates and edits, the developer answers, a reviewer hides, the marketplace sorts', async (t) => {
  const app = await build(t, { env: REVIEWER_ENV })
  const base = await listen(app)
  const listed = await listedApp(app, { name: 'Route Rocket', slug: 'route-rocket', category: 'shipping', description: 'Delivery routes planned in a click.' })
  const other = await listedApp(app, { name: 'Apex Alerts', slug: 'apex-alerts', category: 'analytics', description: 'Alerts when sales drop.' }, listed.developer)
  const { merchant: mia } = await installedBy(app, listed, 'Mia’s Deli')
  const { merchant: max } = await installedBy(app, listed, 'Max Bikes')
  const { merchant: spammer } = await installedBy(app, listed, 'Follower Farm')
  const { merchant: otherRater } = await installedBy(app, other, 'Otto Optics')
  // a real installation older than APP_REVIEW_MIN_INSTALL_HOURS (24): moved back in the database, as if made two days ago
  const backdate = async (businessId: string) => await app.db.execute(sql`update installations set installed_at = installed_at - interval '2 days' where business_id = ${businessId}`)

  const browser = await launch(t)
  const visitor = await browser.newPage({ viewport: { width: 1280, height: 900 } })

  await t.test('the marketplace before any review: no reviews yet', async (t) => {
    await visitor.goto(`${base}/apps/route-rocket`)
    await visitor.getByTestId('listing-reviews').getByTestId('empty').waitFor()
    t.match(await visitor.getByTestId('listing-reviews').innerText(), /No reviews yet/)
    t.match(await visitor.getByTestId('rating-summary').first().innerText(), /No reviews yet/)
    await lookAt(t, visitor, 'listing-empty')
  })

  const merchant = await browser.newPage({ viewport: { width: 1280, height: 900 } })
  await t.test('a merchant rates the app by keyboard: refused while the install is young, then posts, then edits', async (t) => {
    await merchant.goto(`${base}/login?next=${encodeURIComponent('/admin/apps')}`)
    await logIn(merchant, mia.email, 'correct-horse')
    await merchant.getByRole('link', { name: 'Review Route Rocket' }).click()
    await merchant.waitForURL(`${base}/apps/route-rocket#my-review`)
    const mine = merchant.getByTestId('my-review')
    await mine.getByRole('button', { name: 'Post review' }).waitFor()
    await lookAt(t, merchant, 'merchant-form')

    // the radio group by keyboard: focus the first star, arrows choose
    await mine.getByRole('radio', { name: '1 star' }).focus()
    for (let i = 0; i < 3; i++) await merchant.keyboard.press('ArrowRight')
    t.ok(await mine.getByRole('radio', { name: '4 stars' }).isChecked(), 'the arrow keys choose 4 stars')
    await mine.getByLabel('Your review (optional)').fill('Saves us an hour a day.')
    await mine.getByRole('button', { name: 'Post review' }).click()
    await mine.getByRole('alert').waitFor()
    t.match(await mine.getByRole('alert').innerText(), /after it has been installed on your business for 24 hours/, 'the 403 review_not_allowed, explained')
    await lookAt(t, merchant, 'merchant-refused')

    await backdate(mia.businessId)
    await mine.getByLabel('Your review (optional)').fill('x'.repeat(2001))
    t.match(await mine.getByText(/2001 \/ 2000 characters/).innerText(), /2001/, 'the counter says it is too long')
    await mine.getByRole('button', { name: 'Post review' }).click()
    await mine.getByTestId('field-error').waitFor()
    t.match(await mine.getByTestId('field-error').innerText(), /2000/, 'the API\'s field error, under the text')
    t.equal(await mine.getByLabel('Your review (optional)').getAttribute('aria-invalid'), 'true')
    await lookAt(t, merchant, 'merchant-field-error')

    await mine.getByLabel('Your review (optional)').fill('Saves us an hour a day.')
    await mine.getByRole('button', { name: 'Post review' }).click()
    await mine.getByRole('status').filter({ hasText: 'your review is posted' }).waitFor()
    t.match(await mine.getByTestId('app-review').innerText(), /Saves us an hour a day/)
    await merchant.getByTestId('listing-review-list').waitFor()
    t.match(await merchant.getByTestId('rating-summary').first().innerText(), /4\.0[\s\S]*\(1 review\)/, 'the listing\'s rating follows')

    await mine.getByRole('button', { name: 'Edit review' }).click()
    await mine.getByRole('radio', { name: '5 stars' }).check()
    await mine.getByLabel('Your review (optional)').fill('Saves us an hour a day. Support answered within minutes.')
    await mine.getByRole('button', { name: 'Save changes' }).click()
    await mine.getByRole('status').filter({ hasText: 'Your review is updated' }).waitFor()
    await merchant.getByTestId('rating-summary').first().filter({ hasText: '5.0' }).waitFor()
    t.match(await merchant.getByTestId('listing-review-list').innerText(), /Support answered within minutes/)
    await lookAt(t, merchant, 'merchant-posted')
  })

  // the others' reviews, through the API: a second merchant's, and one to hide
  await backdate(max.businessId)
  await backdate(spammer.businessId)
  await backdate(otherRater.businessId)
  const maxReview = await review(app, max, listed.appId, 2, 'Crashed twice during checkout.')
  const spam = await review(app, spammer, listed.appId, 1, 'BUY CHEAP FOLLOWERS at spam.example')
  await review(app, otherRater, other.appId, 3, 'Fine.')

  const developer = await browser.newPage({ viewport: { width: 1280, height: 900 } })
  await t.test('the developer reads the reviews newest first and answers once', async (t) => {
    await developer.goto(`${base}/login?next=${encodeURIComponent(`/portal/apps/${listed.appId}/ratings`)}`)
    await logIn(developer, listed.developer.email, 'correct-horse')
    const list = developer.getByTestId('developer-app-reviews')
    await list.waitFor()
    t.equal(await developer.getByRole('tab', { name: 'Ratings' }).getAttribute('aria-selected'), 'true')
    t.match(await list.innerText(), /BUY CHEAP FOLLOWERS[\s\S]*Crashed twice[\s\S]*Support answered/, 'newest first')
    t.same(await list.getByTestId('review-business').allInnerTexts(), ['Follower Farm', 'Max Bikes', 'Mia’s Deli'], 'each with its business')
    await lookAt(t, developer, 'developer-list')

    const mias = list.getByTestId('app-review').filter({ hasText: 'Support answered' })
    await mias.getByLabel(/Your answer/).fill('Thank you! Glad it helps.')
    await mias.getByRole('button', { name: 'Send answer' }).click()
    await mias.getByTestId('developer-reply').waitFor()
    t.match(await mias.getByTestId('developer-reply').innerText(), /Thank you! Glad it helps/)
    t.equal(await mias.getByRole('button', { name: 'Send answer' }).count(), 0, 'answered once: no form left')

    // answered meanwhile (another tab): the second answer is the API's 409 reply_exists, said in place
    const maxs = list.getByTestId('app-review').filter({ hasText: 'Crashed twice' })
    const answered = await app.inject({ method: 'PUT', url: `/developer/apps/${listed.appId}/app-reviews/${maxReview.id}/reply`, headers: listed.developer.auth, payload: { body: 'Fixed in 1.0.1, sorry.' } })
    t.equal(answered.statusCode, 200)
    await maxs.getByLabel(/Your answer/).fill('Sorry about that.')
    await maxs.getByRole('button', { name: 'Send answer' }).click()
    await maxs.getByRole('alert').waitFor()
    t.match(await maxs.getByRole('alert').innerText(), /already has your answer/)
    await lookAt(t, developer, 'developer-reply-exists')
    await maxs.getByRole('button', { name: 'Show it' }).click()
    await maxs.getByTestId('developer-reply').waitFor()
    t.match(await maxs.getByTestId('developer-reply').innerText(), /Fixed in 1\.0\.1/)
  })

  const reviewer = await browser.newPage({ viewport: { width: 1280, height: 900 } })
  await t.test('a reviewer hides the spam, with a reason', async (t) => {
    await reviewer.goto(`${base}/login?next=${encodeURIComponent('/apps/route-rocket')}`)
    await logIn(reviewer, REVIEWER_ENV.REVIEWER_EMAIL, REVIEWER_ENV.REVIEWER_PASSWORD)
    await reviewer.getByRole('link', { name: 'Moderate these reviews (hidden ones too)' }).click()
    await reviewer.waitForURL(`${base}/reviewer/apps/${listed.appId}#app-reviews`)
    const panel = reviewer.getByTestId('review-app-reviews')
    await panel.getByTestId('app-review').first().waitFor()
    t.equal(await panel.getByTestId('app-review').count(), 3)
    t.same(await panel.getByTestId('review-business').allInnerTexts(), ['Follower Farm', 'Max Bikes', 'Mia’s Deli'], 'each with its business')
    const spamItem = panel.getByTestId('app-review').filter({ hasText: 'BUY CHEAP' })
    await spamItem.getByRole('button', { name: 'Hide' }).click()
    t.ok(await spamItem.getByLabel(/Why is it hidden/).evaluate((el) => el === document.activeElement), 'the reason field takes the focus')
    await spamItem.getByRole('button', { name: 'Hide review' }).click()
    await spamItem.getByTestId('field-error').waitFor()
    t.match(await spamItem.getByTestId('field-error').innerText(), /Give a reason/, 'the 400 without a reason, on the field')
    await lookAt(t, reviewer, 'reviewer-reason-missing')
    await spamItem.getByLabel(/Why is it hidden/).fill('Advertising, not a review.')
    await spamItem.getByRole('button', { name: 'Hide review' }).click()
    await spamItem.getByTestId('hidden-badge').waitFor()
    t.match(await spamItem.getByTestId('hidden-reason').innerText(), /Advertising, not a review/)
    await lookAt(t, reviewer, 'reviewer-hidden')
    const check = await app.inject({ url: `/review/apps/${listed.appId}/app-reviews`, headers: (await loginReviewer(app)).auth })
    t.match(check.json().data.find((r: { id: string }) => r.id === spam.id), { hidden: { reason: 'Advertising, not a review.' } })
  })

  await t.test('the marketplace shows the average, the count, the distribution and the answers, and sorts', async (t) => {
    await visitor.goto(base)
    await card(visitor, 'Route Rocket').waitFor()
    t.match(await card(visitor, 'Route Rocket').innerText(), /3\.5[\s\S]*\(2 reviews\)/, 'the hidden review leaves the average and the count')
    t.match(await card(visitor, 'Apex Alerts').innerText(), /3\.0[\s\S]*\(1 review\)/)
    t.same(await cardNames(visitor), ['Apex Alerts', 'Route Rocket'], 'newest first by default')
    await visitor.getByLabel('Sort by').selectOption('rating')
    await visitor.waitForURL(/sort=rating/)
    await visitor.getByTestId('app-card').first().filter({ hasText: 'Route Rocket' }).waitFor()
    await visitor.getByLabel('Sort by').selectOption('installs')
    await visitor.waitForURL(/sort=installs/)
    await visitor.getByTestId('app-card').first().filter({ hasText: 'Route Rocket' }).waitFor()
    await visitor.getByLabel('Sort by').selectOption('name')
    await visitor.waitForURL(/sort=name/)
    await visitor.getByTestId('app-card').first().filter({ hasText: 'Apex Alerts' }).waitFor()
    t.same(await cardNames(visitor), ['Apex Alerts', 'Route Rocket'], 'name: A to Z')
    await visitor.getByLabel('Sort by').selectOption('rating')
    await visitor.getByTestId('app-card').first().filter({ hasText: 'Route Rocket' }).waitFor()
    await lookAt(t, visitor, 'home-sorted')

    await card(visitor, 'Route Rocket').click()
    const reviews = visitor.getByTestId('listing-reviews')
    await reviews.getByTestId('listing-review-list').waitFor()
    const bars = await reviews.getByTestId('rating-distribution').getByRole('row').allInnerTexts()
    t.same(bars.map((row) => row.replace(/\s+/g, ' ').trim()), ['5 stars 1', '4 stars 0', '3 stars 0', '2 stars 1', '1 star 0'], 'the distribution, 5 down to 1, the hidden one left out')
    const list = reviews.getByTestId('listing-review-list')
    t.equal(await list.getByTestId('app-review').count(), 2, 'the hidden review is not public')
    t.match(await list.innerText(), /Crashed twice[\s\S]*Fixed in 1\.0\.1[\s\S]*Support answered[\s\S]*Glad it helps/, 'newest first, each with its answer')
    t.notMatch(await list.innerText(), /BUY CHEAP/)
    t.equal(await list.getByTestId('review-business').count(), 0, 'the public reviews name no business')
    await lookAt(t, visitor, 'listing')
    await reviews.getByLabel('Sort reviews').selectOption('rating')
    await list.getByTestId('app-review').first().filter({ hasText: 'Support answered' }).waitFor()
    t.pass('highest rated first')
  })

  await t.test('the merchant withdraws the review', async (t) => {
    await merchant.reload()
    const mine = merchant.getByTestId('my-review')
    await mine.getByRole('button', { name: 'Withdraw your review' }).click()
    await mine.getByRole('button', { name: 'Withdraw review' }).click()
    await mine.getByRole('status').filter({ hasText: 'withdrawn' }).waitFor()
    await mine.getByRole('button', { name: 'Post review' }).waitFor()
    await merchant.getByTestId('rating-summary').first().filter({ hasText: '2.0' }).waitFor()
    t.match(await merchant.getByTestId('rating-summary').first().innerText(), /2\.0[\s\S]*\(1 review\)/, 'the rating no longer counts it')
    await lookAt(t, merchant, 'merchant-withdrawn')
  })
})
