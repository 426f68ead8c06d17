import t from 'tap'
import { build, listen, registerUser, createApp, REVIEWER_ENV } from '../helper.ts'
import { launch, logIn, screenshot } from './browser.ts'

t.test('review round trip in Chromium: reject with notes, resubmit, approve, listed', async (t) => {
  const app = await build(t, { env: REVIEWER_ENV })
  const base = await listen(app)
  const developer = await registerUser(app, 'DEVELOPER', { name: 'Dana Dev' })
  const { app: created } = await createApp(app, developer, { name: 'Parcel Pal', slug: 'parcel-pal', category: 'shipping', description: 'Live shipping rates from every carrier.', scopes: ['read_orders', 'write_shipping'] })
  const manifest = { hooks: [{ hookPoint: 'checkout.shipping_rates', url: '/hooks/rates' }] }
  const saved = await app.inject({ method: 'PUT', url: `/developer/apps/${created.id}/manifest`, headers: developer.auth, payload: { manifest } })
  t.equal(saved.statusCode, 200)
  const submitted = await app.inject({ method: 'POST', url: `/developer/apps/${created.id}/submit`, headers: developer.auth })
  t.equal(submitted.statusCode, 200)

  const browser = await launch(t)
  const reviewer = await browser.newPage({ viewport: { width: 1100, height: 800 } })
  const dev = await browser.newPage({ viewport: { width: 1100, height: 800 } })

  await reviewer.goto(`${base}/reviewer`)
  await reviewer.waitForURL(/\/login\?next=/)
  await logIn(reviewer, REVIEWER_ENV.REVIEWER_EMAIL, REVIEWER_ENV.REVIEWER_PASSWORD)
  await reviewer.getByTestId('review-queue').waitFor()
  t.match(await reviewer.getByTestId('review-queue').innerText(), /Parcel Pal[\s\S]*New app[\s\S]*No app URL: not installable/, 'an app without an install entry is flagged')
  t.equal(await reviewer.locator('[data-added="true"]').count(), 2, 'both scopes of a new app are highlighted as added')
  await screenshot(reviewer, 'review-queue')

  await t.test('rejects with notes', async (t) => {
    await reviewer.getByRole('link', { name: /Parcel Pal/ }).click()
    await reviewer.getByTestId('review-app').waitFor()
    t.match(await reviewer.getByTestId('review-manifest').innerText(), /checkout\.shipping_rates/, 'the manifest is shown')
    t.match(await reviewer.getByTestId('review-app-url').innerText(), /None: merchants cannot install it/)
    t.match(await reviewer.getByTestId('review-scopes').innerText(), /See your orders[\s\S]*Set delivery fees at checkout[\s\S]*never approved/)
    t.ok(await reviewer.getByRole('button', { name: 'Reject' }).isDisabled(), 'reject needs notes')
    await screenshot(reviewer, 'review-app')
    await reviewer.getByLabel('Notes for the developer').fill('Please explain why the app needs read_orders.')
    await reviewer.getByRole('button', { name: 'Reject' }).click()
    await reviewer.waitForURL(/\/reviewer\?done=rejected/)
    t.match(await reviewer.getByRole('status').innerText(), /Parcel Pal was sent back to the developer/)
    await reviewer.getByTestId('empty').waitFor()
    await screenshot(reviewer, 'review-queue-after-reject')
  })

  await t.test('the developer reads the notes and resubmits', async (t) => {
    await dev.goto(`${base}/login?next=${encodeURIComponent(`/portal/apps/${created.id}?tab=review`)}`)
    await logIn(dev, developer.email, 'correct-horse')
    await dev.getByTestId('review-notes').waitFor()
    t.match(await dev.getByTestId('review-notes').innerText(), /explain why the app needs read_orders/)
    t.match(await dev.getByTestId('versions').innerText(), /Changes requested[\s\S]*explain why/)
    await screenshot(dev, 'portal-review-rejected')
    await dev.getByRole('button', { name: 'Resubmit for review' }).click()
    await dev.getByText(/Submitted: a reviewer will/).waitFor()
    t.pass('resubmitted')
  })

  await t.test('approves; the app is in the marketplace', async (t) => {
    await reviewer.goto(`${base}/reviewer`)
    await reviewer.getByRole('link', { name: /Parcel Pal/ }).click()
    await reviewer.getByTestId('review-app').waitFor()
    await reviewer.getByLabel('Notes for the developer').fill('Thanks for the explanation: approved.')
    await reviewer.getByRole('button', { name: 'Approve' }).click()
    await reviewer.waitForURL(/\/reviewer\?done=approved/)
    t.match(await reviewer.getByRole('status').innerText(), /Parcel Pal was approved and published/)
    await screenshot(reviewer, 'review-queue-after-approve')

    await dev.goto(`${base}/portal`)
    await dev.getByTestId('portal-apps').waitFor()
    t.match(await dev.getByTestId('portal-apps').innerText(), /Parcel Pal[\s\S]*Approved[\s\S]*Published/)
    await screenshot(dev, 'portal-apps-approved')

    await dev.goto(`${base}/?category=shipping`)
    await dev.getByTestId('app-grid').waitFor()
    t.match(await dev.getByTestId('app-grid').innerText(), /Parcel Pal[\s\S]*by Dana Dev/)
    await dev.getByRole('link', { name: /Parcel Pal/ }).click()
    await dev.getByTestId('app-listing').waitFor()
    t.match(await dev.getByTestId('approved-scopes').innerText(), /See your orders[\s\S]*Set delivery fees at checkout/)
  })

  await t.test('an approved app edited again shows the approval note as such, not as changes asked for', async (t) => {
    const edited = await app.inject({ method: 'PATCH', url: `/developer/apps/${created.id}`, headers: developer.auth, payload: { scopes: ['read_orders', 'write_shipping', 'read_business'] } })
    t.equal(edited.statusCode, 200)
    t.equal(edited.json().status, 'DRAFT', 'asking for a new scope starts a new version to review')
    await dev.goto(`${base}/portal/apps/${created.id}/review`)
    const notes = dev.getByTestId('review-notes')
    await notes.waitFor()
    t.match(await notes.innerText(), /note when approving:[\s\S]*Thanks for the explanation: approved\./)
    t.notMatch(await notes.innerText(), /asked for changes/, 'not called a request for changes')
    t.ok(await dev.getByRole('button', { name: 'Submit for review' }).isVisible(), 'the button submits, it does not "resubmit"')
    await screenshot(dev, 'portal-review-approved-then-edited')
  })

  await t.test('a developer is told the queue is for reviewers', async (t) => {
    await dev.goto(`${base}/reviewer`)
    await dev.getByTestId('wrong-role').waitFor()
    t.match(await dev.getByTestId('wrong-role').innerText(), /This area is for reviewers/)
    await screenshot(dev, 'review-wrong-role')
  })
})
