import t from 'tap'
import { build, portsOf, registerUser } from '../../helper.ts'
import { TestClock } from '../../clock.ts'
import { installApp, receiver } from '../webhooks/helpers.ts'
import { ask, DAY_MS, decide, merchantWith, PLANS, pricedApp, RETURN_URL, setPricing, usd } from './helpers.ts'

const REVIEWER = { REVIEWER_EMAIL: 'reviewer@example.com', REVIEWER_PASSWORD: 'reviewer-password' }

t.test('bad charges are refused with a code and nothing is written', async (t) => {
  const app = await build(t, { env: REVIEWER })
  const priced = await pricedApp(app)
  const { merchant, installed } = await merchantWith(app, priced)
  const post = (kind: string, payload: Record<string, unknown>) => app.inject({ method: 'POST', url: `/app-api/billing/${kind}`, headers: installed.auth, payload })

  const cases: Array<[string, string, Record<string, unknown>, number, string]> = [
    ['an unknown plan', 'subscriptions', { planId: 'gold', returnUrl: RETURN_URL }, 400, 'plan_unknown'],
    ['a one-time plan as a subscription', 'subscriptions', { planId: 'setup', returnUrl: RETURN_URL }, 400, 'plan_kind_mismatch'],
    ['a recurring plan as a purchase', 'purchases', { planId: 'basic', returnUrl: RETURN_URL }, 400, 'plan_kind_mismatch'],
    ['a returnUrl on a foreign origin', 'subscriptions', { planId: 'basic', returnUrl: 'https://evil.example.net/steal' }, 400, 'validation_failed'],
    ['a returnUrl on the platform', 'subscriptions', { planId: 'basic', returnUrl: `${app.origins.adminUrl}admin` }, 400, 'validation_failed'],
    ['a javascript: returnUrl', 'subscriptions', { planId: 'basic', returnUrl: 'javascript:alert(1)' }, 400, 'validation_failed'],
    ['an unknown field', 'subscriptions', { planId: 'basic', returnUrl: RETURN_URL, price: 1 }, 400, 'validation_failed']
  ]
  for (const [what, kind, payload, status, code] of cases) {
    const response = await post(kind, payload)
    t.equal(response.statusCode, status, what)
    t.equal(response.json().code, code, what)
  }
  const foreign = await post('subscriptions', { planId: 'basic', returnUrl: 'https://evil.example.net/steal' })
  t.match(foreign.json().errors, [{ path: '/returnUrl', code: 'return_url_foreign' }])
  t.same((await app.inject({ url: '/app-api/billing/subscriptions', headers: installed.auth })).json(), { data: [], total: 0, page: 1, limit: 20 }, 'nothing written')
  t.same((await app.inject({ url: '/merchant/billing', headers: merchant.auth })).json(), { subscriptions: [], pending: [], usage: [], nextInvoiceAt: null })

  // usage only on an ACTIVE subscription with a capped amount
  const pending = await ask(app, installed, 'subscriptions', 'basic')
  const record = (id: string) => app.inject({
    method: 'POST', url: `/app-api/billing/subscriptions/${id}/usage-records`, headers: installed.auth,
    payload: { description: 'x', price: usd(1), idempotencyKey: 'k' }
  })
  t.equal((await record(pending.id)).json().code, 'charge_not_active', 'a PENDING subscription takes no usage')
  const pro = await ask(app, installed, 'subscriptions', 'pro')
  await decide(app, merchant, pro.id)
  t.equal((await record(pro.id)).statusCode, 422)
  t.equal((await record(pro.id)).json().code, 'usage_not_in_plan')
  t.equal((await app.inject({ method: 'POST', url: `/app-api/billing/subscriptions/${pending.id}/cancel`, headers: installed.auth })).json().code, 'charge_not_active')
  t.equal((await app.inject({ method: 'POST', url: `/merchant/charges/${pro.id}/approve`, headers: merchant.auth })).json().code, 'charge_not_pending')
})

t.test('an app never sees another installation\'s charges, a merchant never another business\'s', async (t) => {
  const app = await build(t, { env: REVIEWER })
  const priced = await pricedApp(app)
  const other = await pricedApp(app)
  const { merchant, installed } = await merchantWith(app, priced)
  const { installed: otherApp } = await merchantWith(app, other, merchant)
  const { merchant: stranger, installed: strangerInstall } = await merchantWith(app, priced)
  const subscription = await ask(app, installed, 'subscriptions', 'basic')
  await decide(app, merchant, subscription.id)

  for (const [who, auth] of [['another app on the same store', otherApp.auth], ['the same app on another store', strangerInstall.auth]] as const) {
    t.equal((await app.inject({ url: `/app-api/billing/subscriptions/${subscription.id}`, headers: auth })).statusCode, 404, who)
    t.equal((await app.inject({ method: 'POST', url: `/app-api/billing/subscriptions/${subscription.id}/cancel`, headers: auth })).statusCode, 404, who)
    const usage = await app.inject({
      method: 'POST', url: `/app-api/billing/subscriptions/${subscription.id}/usage-records`, headers: auth,
      payload: { description: 'x', price: usd(1), idempotencyKey: 'k' }
    })
    t.equal(usage.statusCode, 404, who)
    t.equal((await app.inject({ url: '/app-api/billing/subscriptions', headers: auth })).json().total, 0, who)
  }
  for (const path of [`/merchant/charges/${subscription.id}`]) t.equal((await app.inject({ url: path, headers: stranger.auth })).statusCode, 404)
  for (const action of ['approve', 'decline']) {
    t.equal((await app.inject({ method: 'POST', url: `/merchant/charges/${subscription.id}/${action}`, headers: stranger.auth })).statusCode, 404)
  }
  t.equal((await app.inject({ method: 'POST', url: `/merchant/subscriptions/${subscription.id}/cancel`, headers: stranger.auth })).statusCode, 404)
  t.equal((await app.inject({ url: '/app-api/billing/subscriptions', headers: { authorization: 'Bearer nope' } })).statusCode, 401)
  const developer = await registerUser(app, 'DEVELOPER')
  t.equal((await app.inject({ url: '/merchant/billing', headers: developer.auth })).statusCode, 200, 'a developer\'s sandbox business has its own billing')
  t.equal((await app.inject({ url: '/merchant/billing' })).statusCode, 401)
})

t.test('declined and expired charges; a pending charge expires after two billing days', async (t) => {
  const clock = new TestClock({ frozen: true })
  const app = await build(t, { clock, env: REVIEWER })
  const hooks = await receiver(t)
  const priced = await pricedApp(app, { webhookUrl: hooks.url })
  const { merchant, installed } = await merchantWith(app, priced)
  const declined = await ask(app, installed, 'purchases', 'setup')
  const decision = await decide(app, merchant, declined.id, 'decline')
  t.equal(decision.status, 'DECLINED')
  t.equal(new URL(decision.redirectUrl).searchParams.get('status'), 'DECLINED')
  const [delivery] = await hooks.waitFor(1)
  t.match(JSON.parse(delivery.body), { event: 'app_purchase.updated', data: { id: declined.id, status: 'DECLINED' } })

  const late = await ask(app, installed, 'subscriptions', 'basic')
  t.equal((await app.inject({ url: '/merchant/billing', headers: merchant.auth })).json().pending[0].id, late.id)
  clock.advance(2 * DAY_MS)
  t.same((await app.inject({ url: '/merchant/billing', headers: merchant.auth })).json().pending, [], 'no longer offered')
  const refused = await app.inject({ method: 'POST', url: `/merchant/charges/${late.id}/approve`, headers: merchant.auth })
  t.equal(refused.statusCode, 409)
  t.equal(refused.json().code, 'charge_expired')
  t.equal((await app.inject({ url: `/app-api/billing/subscriptions/${late.id}`, headers: installed.auth })).json().status, 'EXPIRED')

  const swept = await ask(app, installed, 'subscriptions', 'basic')
  const seen = await ask(app, installed, 'purchases', 'setup')
  clock.advance(2 * DAY_MS + 1)
  t.match((await app.inject({ url: `/merchant/charges/${seen.id}`, headers: merchant.auth })).json(), { status: 'EXPIRED', expiresAt: null }, 'a read finds it expired')
  t.equal((await portsOf(app).billing.runDue()).expired, 1, 'the job expires what nobody decided')
  t.equal((await app.inject({ url: `/app-api/billing/subscriptions/${swept.id}`, headers: installed.auth })).json().status, 'EXPIRED')
  await hooks.waitFor(4)
  t.same(hooks.received.map((received) => JSON.parse(received.body).data.status), ['DECLINED', 'EXPIRED', 'EXPIRED', 'EXPIRED'])
})

t.test('uninstalling cancels; a reinstall keeps what was used of the trial', async (t) => {
  const clock = new TestClock({ frozen: true })
  const app = await build(t, { clock, env: REVIEWER })
  const hooks = await receiver(t)
  const priced = await pricedApp(app, { webhookUrl: hooks.url })
  const { merchant, installed } = await merchantWith(app, priced)
  const first = await ask(app, installed, 'subscriptions', 'basic')
  const waiting = await ask(app, installed, 'purchases', 'setup')
  await decide(app, merchant, first.id)
  clock.advance(2 * DAY_MS)
  const uninstalled = await app.inject({ method: 'DELETE', url: `/merchant/installations/${installed.installationId}`, headers: merchant.auth })
  t.equal(uninstalled.statusCode, 200)
  t.equal((await app.inject({ url: `/merchant/charges/${first.id}`, headers: merchant.auth })).json().status, 'CANCELLED')
  t.equal((await app.inject({ url: `/merchant/charges/${waiting.id}`, headers: merchant.auth })).json().status, 'EXPIRED', 'a pending charge of an uninstalled app can no longer be approved')
  // the app hears it even though it is uninstalled: its webhook is its own
  await hooks.waitFor(3)
  t.same(hooks.received.map((received) => JSON.parse(received.body).data.status).sort(), ['ACTIVE', 'CANCELLED', 'EXPIRED'])

  const { installed: again } = await merchantWith(app, priced, merchant)
  const second = await ask(app, again, 'subscriptions', 'basic')
  const approved = await decide(app, merchant, second.id)
  t.equal(approved.trialEndsAt, new Date(clock.nowMs() + 5 * DAY_MS).toISOString(), 'two of the seven trial days were used: five are left')
  clock.advance(5 * DAY_MS)
  await app.inject({ method: 'POST', url: `/merchant/subscriptions/${second.id}/cancel`, headers: merchant.auth })
  const third = await ask(app, again, 'subscriptions', 'pro')
  t.equal((await decide(app, merchant, third.id)).trialEndsAt, null, 'the trial is used up, whatever the plan')
})

t.test('a test install charges from the edited pricing, always as a test, never invoiced', async (t) => {
  const clock = new TestClock({ frozen: true })
  const app = await build(t, { clock, env: REVIEWER })
  const installed = await installApp(app, { scopes: ['read_business'], appUrl: 'https://app.example.com/', redirectUrl: 'https://app.example.com/oauth/callback' })
  const sandbox = { auth: installed.developer.auth }
  t.equal((await app.inject({ method: 'POST', url: '/app-api/billing/subscriptions', headers: installed.auth, payload: { planId: 'basic', returnUrl: RETURN_URL } })).json().code, 'plan_unknown', 'a free app has no plan')
  await setPricing(app, installed.developer, installed.appId, PLANS)
  const charge = await ask(app, installed, 'subscriptions', 'yearly')
  t.equal(charge.test, true, 'a test install\'s charges are test charges')
  const approved = await app.inject({ method: 'POST', url: `/merchant/charges/${charge.id}/approve`, headers: sandbox.auth })
  t.equal(approved.json().status, 'ACTIVE')
  t.equal((await app.inject({ url: '/merchant/billing', headers: sandbox.auth })).json().nextInvoiceAt, null, 'a test charge opens no billing cycle')
  clock.advance(60 * DAY_MS)
  t.same(await portsOf(app).billing.runDue(), { expired: 0, invoices: [] })
  t.equal((await app.inject({ url: '/merchant/invoices', headers: sandbox.auth })).json().total, 0)
})

t.test('an annual plan is charged whole in the cycle its year starts', async (t) => {
  const clock = new TestClock({ frozen: true, startMs: Date.UTC(2026, 0, 1) })
  const app = await build(t, { clock, env: REVIEWER })
  const priced = await pricedApp(app)
  const { merchant, installed } = await merchantWith(app, priced)
  const yearly = await ask(app, installed, 'subscriptions', 'yearly')
  await decide(app, merchant, yearly.id)
  const billing = portsOf(app).billing
  const invoiced: number[] = []
  for (let cycle = 0; cycle < 13; cycle++) {
    clock.advance(30 * DAY_MS)
    const { invoices } = await billing.runDue()
    invoiced.push(invoices.length)
  }
  t.same(invoiced, [1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1], 'day 0 and day 365 start a year (cycles 1 and 13)')
  const list = (await app.inject({ url: '/merchant/invoices?limit=5', headers: merchant.auth })).json()
  t.same(list.data.map((invoice: { total: { amount: number } }) => invoice.total.amount), [12000, 12000])
  const earnings = (await app.inject({ url: `/developer/apps/${priced.appId}/earnings`, headers: priced.developer.auth })).json()
  t.match(earnings, { payingInstallations: 1, monthlyRecurringRevenue: usd(1000) }, 'a twelfth of the year')
})
