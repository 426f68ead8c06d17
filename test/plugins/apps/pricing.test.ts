import t, { type Test } from 'tap'
import { build, registerUser, createApp, publishApp, loginReviewer, appInput, REVIEWER_ENV } from '../../helper.ts'

const usd = (amount: number) => ({ amount, currency: 'USD' })
const pro = { id: 'pro', name: 'Pro', kind: 'RECURRING', price: usd(1900), interval: 'EVERY_30_DAYS', trialDays: 14, usage: { cappedAmount: usd(5000), terms: '5 cents per card' } }
const setup = { id: 'setup', name: 'Setup', kind: 'ONE_TIME', price: usd(4900) }
const plan = (n: number) => ({ id: `plan-${n}`, name: `Plan ${n}`, kind: 'RECURRING', price: usd(100 * n), interval: 'ANNUAL' })

t.test('PATCH /developer/apps/:appId pricing', async (t) => {
  const app = await build(t, { env: REVIEWER_ENV })
  const developer = await registerUser(app, 'DEVELOPER')
  const { app: created } = await createApp(app, developer)
  const patch = async (body: Record<string, unknown>) => await app.inject({ method: 'PATCH', url: `/developer/apps/${created.id}`, headers: developer.auth, payload: body })
  const current = async () => (await app.inject({ method: 'GET', url: `/developer/apps/${created.id}`, headers: developer.auth })).json()

  t.test('a new app is free: no plans, never approved, the platform\'s currency shown', async (t) => {
    t.match(created, { pricing: { plans: [] }, approvedPricing: null, billingCurrency: 'USD' })
  })

  t.test('saves the plans as sent and answers them', async (t) => {
    const response = await patch({ pricing: { plans: [pro, setup] } })
    t.equal(response.statusCode, 200, response.body)
    t.same(response.json().pricing, { plans: [pro, setup] })
    t.equal(response.json().approvedPricing, null)
    t.same((await current()).pricing, { plans: [pro, setup] })
  })

  // each refusal: 400 validation_failed, the item's code and path, nothing written
  const refused = async (t: Test, plans: unknown[], expected: { path: string, code: string }) => {
    const before = await current()
    const response = await patch({ pricing: { plans } })
    t.equal(response.statusCode, 400, response.body)
    t.match(response.json(), { code: 'validation_failed', errors: [{ in: 'body', ...expected, message: /\S/ }] })
    t.same(await current(), before, 'nothing written')
  }

  t.test('refuses more than 10 plans', async (t) => {
    await refused(t, Array.from({ length: 11 }, (_, i) => plan(i + 1)), { path: '/pricing/plans', code: 'field_too_many' })
  })

  t.test('refuses two plans with the same id', async (t) => {
    await refused(t, [pro, { ...setup, id: 'pro' }], { path: '/pricing/plans/1/id', code: 'plan_id_duplicate' })
  })

  t.test('refuses a price or a usage cap in another currency', async (t) => {
    await refused(t, [{ ...pro, price: { amount: 1900, currency: 'EUR' } }], { path: '/pricing/plans/0/price/currency', code: 'currency_mismatch' })
    await refused(t, [{ ...pro, usage: { ...pro.usage, cappedAmount: { amount: 10, currency: 'GBP' } } }], { path: '/pricing/plans/0/usage/cappedAmount/currency', code: 'currency_mismatch' })
  })

  t.test('refuses a RECURRING plan without an interval', async (t) => {
    const { interval: _interval, ...noInterval } = pro
    await refused(t, [noInterval], { path: '/pricing/plans/0/interval', code: 'plan_interval_missing' })
  })

  t.test('refuses a ONE_TIME plan with an interval, trialDays or usage', async (t) => {
    await refused(t, [{ ...setup, interval: 'ANNUAL' }], { path: '/pricing/plans/0/interval', code: 'plan_one_time_field' })
    await refused(t, [{ ...setup, trialDays: 7 }], { path: '/pricing/plans/0/trialDays', code: 'plan_one_time_field' })
    await refused(t, [{ ...setup, usage: pro.usage }], { path: '/pricing/plans/0/usage', code: 'plan_one_time_field' })
  })

  t.test('refuses trial days outside 0–90', async (t) => {
    await refused(t, [{ ...pro, trialDays: 91 }], { path: '/pricing/plans/0/trialDays', code: 'field_too_large' })
    await refused(t, [{ ...pro, trialDays: -1 }], { path: '/pricing/plans/0/trialDays', code: 'field_too_small' })
  })

  t.test('refuses amounts that are not non-negative integers of minor units', async (t) => {
    await refused(t, [{ ...pro, price: usd(19.5) }], { path: '/pricing/plans/0/price/amount', code: 'field_type' })
    await refused(t, [{ ...pro, price: usd(-1) }], { path: '/pricing/plans/0/price/amount', code: 'field_too_small' })
  })

  t.test('lists every problem at once, each at its path', async (t) => {
    const response = await patch({ pricing: { plans: [{ ...setup, trialDays: 3, price: { amount: 1, currency: 'EUR' } }, { ...pro, id: 'setup', interval: undefined }] } })
    t.equal(response.statusCode, 400)
    t.same(response.json().errors.map((e: { path: string, code: string }) => [e.path, e.code]).sort(), [
      ['/pricing/plans/0/price/currency', 'currency_mismatch'],
      ['/pricing/plans/0/trialDays', 'plan_one_time_field'],
      ['/pricing/plans/1/id', 'plan_id_duplicate'],
      ['/pricing/plans/1/interval', 'plan_interval_missing']
    ])
  })

  t.test('POST /developer/apps takes pricing under the same rules', async (t) => {
    const { app: priced } = await createApp(app, developer, { pricing: { plans: [setup] } })
    t.same(priced.pricing, { plans: [setup] })
    const input = appInput({ pricing: { plans: [{ ...setup, price: { amount: 1, currency: 'EUR' } }] } })
    const refusedCreate = await app.inject({ method: 'POST', url: '/developer/apps', headers: developer.auth, payload: input })
    t.equal(refusedCreate.statusCode, 400)
    t.match(refusedCreate.json().errors, [{ path: '/pricing/plans/0/price/currency', code: 'currency_mismatch' }])
    t.equal((await app.inject({ url: `/marketplace/apps/${input.slug}` })).statusCode, 404)
    t.notOk((await app.inject({ url: '/developer/apps?limit=100', headers: developer.auth })).json().data.some((a: { slug: string }) => a.slug === input.slug), 'nothing created')
  })
})

t.test('pricing and the review', async (t) => {
  const app = await build(t, { env: REVIEWER_ENV })
  const developer = await registerUser(app, 'DEVELOPER')
  const merchant = await registerUser(app, 'MERCHANT')
  const reviewer = await loginReviewer(app)
  const { app: created } = await createApp(app, developer, { pricing: { plans: [pro] } })
  const patch = async (body: Record<string, unknown>) => (await app.inject({ method: 'PATCH', url: `/developer/apps/${created.id}`, headers: developer.auth, payload: body })).json()
  const listing = async () => (await app.inject({ method: 'GET', url: `/marketplace/apps/${created.slug}` })).json()
  const consent = async (user: { auth: { authorization: string } }) => (await app.inject({
    url: `/oauth/authorize/info?${new URLSearchParams({ client_id: created.clientId, redirect_uri: created.redirectUrl, response_type: 'code' })}`, headers: user.auth
  })).json()

  t.test('a developer\'s test install sees the edited plans before any approval', async (t) => {
    t.same((await consent(developer)).pricing, { plans: [pro] })
  })

  t.test('approval snapshots approvedPricing; the listing and the consent show it', async (t) => {
    const approved = await publishApp(app, developer, created.id)
    t.match(approved, { status: 'APPROVED', isPublished: true })
    t.same(approved.approvedPricing, { plans: [pro] })
    t.same((await listing()).pricing, { plans: [pro] })
    t.same((await consent(merchant)).pricing, { plans: [pro] })
  })

  t.test('an edit that leaves the plans as they are (keys in another order) applies at once', async (t) => {
    const reordered = { usage: pro.usage, trialDays: 14, interval: 'EVERY_30_DAYS', price: { currency: 'USD', amount: 1900 }, kind: 'RECURRING', name: 'Pro', id: 'pro' }
    t.match(await patch({ pricing: { plans: [reordered] }, description: 'Same price.' }), { status: 'APPROVED', description: 'Same price.' })
  })

  t.test('a changed price waits for a review; the listing and the merchant\'s consent keep the approved plans', async (t) => {
    const dearer = { ...pro, price: usd(2900) }
    const edited = await patch({ pricing: { plans: [dearer, setup] } })
    t.match(edited, { status: 'DRAFT', isPublished: true, changesRequested: false })
    t.same(edited.pricing, { plans: [dearer, setup] })
    t.same(edited.approvedPricing, { plans: [pro] })
    t.same((await listing()).pricing, { plans: [pro] }, 'the listing keeps the approved plans')
    t.same((await consent(merchant)).pricing, { plans: [pro] }, 'so does a merchant\'s consent')

    const submitted = await app.inject({ method: 'POST', url: `/developer/apps/${created.id}/submit`, headers: developer.auth })
    t.equal(submitted.json().status, 'PENDING_REVIEW')
    const versions = (await app.inject({ url: `/developer/apps/${created.id}/versions`, headers: developer.auth })).json()
    t.same(versions.data[0].changes, ['pricing'], 'the submission says what waits for the review')

    const reviewed = (await app.inject({ url: `/review/apps/${created.id}`, headers: reviewer.auth })).json()
    t.match(reviewed, { pricingChanged: true, addedScopes: [] })
    const diff = (await app.inject({ url: `/review/apps/${created.id}/diff`, headers: reviewer.auth })).json()
    t.same(diff.baseline.snapshot.pricing, { plans: [pro] }, 'the reviewer sees the approved plans')
    t.same(diff.current.pricing, { plans: [dearer, setup] }, 'beside the submitted ones')

    const approved = (await app.inject({ method: 'POST', url: `/review/apps/${created.id}/approve`, headers: reviewer.auth, payload: {} })).json()
    t.same(approved.approvedPricing, { plans: [dearer, setup] })
    t.same((await listing()).pricing, { plans: [dearer, setup] })
  })

  t.test('taking the change back before submitting returns the app to APPROVED', async (t) => {
    const current = (await app.inject({ url: `/developer/apps/${created.id}`, headers: developer.auth })).json()
    t.equal((await patch({ pricing: { plans: [] } })).status, 'DRAFT')
    t.equal((await patch({ pricing: current.pricing })).status, 'APPROVED')
  })
})

t.test('an app published with no plans is free on the listing and the consent', async (t) => {
  const app = await build(t, { env: REVIEWER_ENV })
  const developer = await registerUser(app, 'DEVELOPER')
  const merchant = await registerUser(app, 'MERCHANT')
  const { app: created } = await createApp(app, developer)
  await publishApp(app, developer, created.id)
  t.same((await app.inject({ url: `/marketplace/apps/${created.slug}` })).json().pricing, { plans: [] })
  const info = await app.inject({ url: `/oauth/authorize/info?${new URLSearchParams({ client_id: created.clientId, redirect_uri: created.redirectUrl, response_type: 'code' })}`, headers: merchant.auth })
  t.same(info.json().pricing, { plans: [] })
})
