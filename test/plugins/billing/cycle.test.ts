import t from 'tap'
import { build, portsOf, registerUser } from '../../helper.ts'
import { TestClock } from '../../clock.ts'
import { receiver } from '../webhooks/helpers.ts'
import { ask, DAY_MS, decide, merchantWith, pricedApp, RETURN_URL, usd } from './helpers.ts'

/**
 * The whole money path of DESIGN §23 on one business: a priced app installed over OAuth, a subscription
 * approved with its trial, usage up to and past the cap, a purchase, a test charge, the plan replaced
 * mid-cycle, a cancellation, and the clock moved across cycles: every invoice total exact to the cent.
 */
t.test('a business pays for what it approved, prorated and exact, and never for a test charge', async (t) => {
  const clock = new TestClock({ frozen: true, startMs: Date.UTC(2026, 10, 2, 12) })
  const app = await build(t, { clock, env: { REVIEWER_EMAIL: 'reviewer@example.com', REVIEWER_PASSWORD: 'reviewer-password' } })
  const hooks = await receiver(t)
  const priced = await pricedApp(app, { webhookUrl: hooks.url })
  const { merchant, installed } = await merchantWith(app, priced)
  const billing = portsOf(app).billing
  const start = clock.nowMs()

  const basic = await ask(app, installed, 'subscriptions', 'basic')
  t.match(basic, {
    id: /^sub_/, status: 'PENDING', planId: 'basic', name: 'Basic', price: usd(999), interval: 'EVERY_30_DAYS', trialDays: 7, trialEndsAt: null,
    currentPeriodEnd: null, test: false, usage: { cappedAmount: usd(5000), balanceUsed: usd(0), balanceRemaining: usd(5000) }
  })
  t.equal(basic.confirmationUrl, `${app.origins.adminUrl.replace(/\/$/, '')}/admin/charges/${basic.id}`)

  const approved = await decide(app, merchant, basic.id)
  t.equal(approved.status, 'ACTIVE')
  t.equal(approved.trialEndsAt, new Date(start + 7 * DAY_MS).toISOString(), 'the trial runs 7 days from the approval')
  const back = new URL(approved.redirectUrl)
  t.equal(`${back.origin}${back.pathname}`, RETURN_URL)
  t.same(Object.fromEntries(back.searchParams), { charge_id: basic.id, status: 'ACTIVE' })
  const shown = (await app.inject({ url: `/app-api/billing/subscriptions/${basic.id}`, headers: installed.auth })).json()
  t.equal(shown.currentPeriodEnd, new Date(start + 30 * DAY_MS).toISOString(), 'the period ends with the business\'s first 30-day cycle')

  // the app hears of its charge, signed, at its own webhook
  const [delivery] = await hooks.waitFor(1)
  t.equal(delivery.headers['x-webhook-event'], 'app_subscription.updated')
  t.match(JSON.parse(delivery.body), { event: 'app_subscription.updated', data: { id: basic.id, status: 'ACTIVE' } })

  // usage: up to the cap, once per key, and never past it
  const usage = (key: string | undefined, amount: number) => app.inject({
    method: 'POST', url: `/app-api/billing/subscriptions/${basic.id}/usage-records`, headers: installed.auth,
    payload: { description: 'Labels printed', price: usd(amount), ...(key === undefined ? {} : { idempotencyKey: key }) }
  })
  const first = await usage('batch-1', 3000)
  t.equal(first.statusCode, 201)
  t.match(first.json(), { id: /^use_/, price: usd(3000), balanceUsed: usd(3000), balanceRemaining: usd(2000) })
  const again = await usage('batch-1', 3000)
  t.equal(again.statusCode, 200, 'the same key answers the first record')
  t.equal(again.json().id, first.json().id)
  const over = await usage('batch-2', 2001)
  t.equal(over.statusCode, 422)
  t.match(over.json(), { code: 'usage_cap_exceeded', balanceRemaining: usd(2000) })
  t.equal((await usage(undefined, 10)).statusCode, 400, 'no idempotency key')
  t.equal((await usage('batch-3', -5)).statusCode, 400, 'a negative amount')
  t.equal((await usage('batch-3', 10.5)).statusCode, 400, 'a fraction of a cent')
  const euro = await app.inject({
    method: 'POST', url: `/app-api/billing/subscriptions/${basic.id}/usage-records`, headers: installed.auth,
    payload: { description: 'Labels', price: { amount: 10, currency: 'EUR' }, idempotencyKey: 'batch-eur' }
  })
  t.equal(euro.statusCode, 400)
  t.equal(euro.json().errors[0].code, 'currency_mismatch')
  // two records with one key at the same moment record once
  const [x, y] = await Promise.all([usage('batch-4', 2000), usage('batch-4', 2000)])
  t.same([x.statusCode, y.statusCode].sort(), [200, 201])
  t.equal(x.json().id, y.json().id)
  t.equal((await app.inject({ url: `/app-api/billing/subscriptions/${basic.id}`, headers: installed.auth })).json().usage.balanceRemaining.amount, 0, 'the cap is reached exactly')

  // a one-time purchase, and a test charge on a production install
  const setup = await ask(app, installed, 'purchases', 'setup')
  t.match(setup, { id: /^pur_/, status: 'PENDING', price: usd(2500), test: false })
  await decide(app, merchant, setup.id)
  const trial = await ask(app, installed, 'purchases', 'setup', { test: true })
  t.equal(trial.test, true)
  await decide(app, merchant, trial.id)

  // day 10: the plan is replaced; the trial was used up with the app, so Pro starts paid
  clock.advance(10 * DAY_MS)
  const pro = await ask(app, installed, 'subscriptions', 'pro')
  const proActive = await decide(app, merchant, pro.id)
  t.equal(proActive.trialEndsAt, null, 'no second trial with the same app')
  const replaced = (await app.inject({ url: `/app-api/billing/subscriptions/${basic.id}`, headers: installed.auth })).json()
  t.match(replaced, { status: 'CANCELLED', replacedBy: pro.id })
  t.same((await app.inject({ url: '/merchant/billing', headers: merchant.auth })).json().subscriptions.map((s: { id: string }) => s.id), [pro.id], 'one ACTIVE subscription')

  // day 30: the first cycle closes
  clock.advance(20 * DAY_MS)
  t.equal((await billing.runDue()).invoices.length, 1)
  const firstInvoice = (await app.inject({ url: '/merchant/invoices', headers: merchant.auth })).json()
  t.equal(firstInvoice.total, 1)
  type Line = { kind: string, chargeId: string, amount: { amount: number } }
  const lines = firstInvoice.data[0].lines.map((line: Line) => [line.kind, line.chargeId, line.amount.amount])
  t.same(lines, [
    ['RECURRING', basic.id, 100], // 999 × 3/30 days (trial to replacement) = 99.9 → 100
    ['RECURRING', pro.id, 1999], // 2999 × 20/30 = 1999.33 → 1999
    ['ONE_TIME', setup.id, 2500],
    ['USAGE', basic.id, 5000]
  ], 'proration, purchase and usage; the test purchase left out')
  t.match(firstInvoice.data[0], {
    id: /^inv_/, businessId: merchant.businessId, status: 'ISSUED', currency: 'USD', total: usd(9599),
    periodStart: new Date(start).toISOString(), periodEnd: new Date(start + 30 * DAY_MS).toISOString()
  })

  // day 45: the merchant cancels; day 90: two cycles later, one more invoice (the third owes nothing)
  clock.advance(15 * DAY_MS)
  const cancelled = await app.inject({ method: 'POST', url: `/merchant/subscriptions/${pro.id}/cancel`, headers: merchant.auth })
  t.equal(cancelled.json().status, 'CANCELLED')
  t.equal((await app.inject({ method: 'POST', url: `/merchant/subscriptions/${pro.id}/cancel`, headers: merchant.auth })).json().code, 'charge_not_active')
  clock.advance(45 * DAY_MS)
  t.equal((await billing.runDue()).invoices.length, 1)
  const invoices = (await app.inject({ url: '/merchant/invoices', headers: merchant.auth })).json()
  t.equal(invoices.total, 2)
  t.match(invoices.data[0], { total: usd(1500), lines: [{ kind: 'RECURRING', chargeId: pro.id, amount: usd(1500) }] }, '2999 × 15/30 = 1499.5 → 1500, half up')
  t.equal((await app.inject({ url: '/merchant/billing', headers: merchant.auth })).json().nextInvoiceAt, new Date(start + 120 * DAY_MS).toISOString())
  t.equal((await billing.runDue()).invoices.length, 0, 'a cycle is invoiced once')

  // the developer's earnings: the fee on each line, half up; the test purchase apart
  const earnings = (await app.inject({ url: `/developer/apps/${priced.appId}/earnings?months=3`, headers: priced.developer.auth })).json()
  t.equal(earnings.months.length, 3)
  const gross = earnings.months.reduce((total: number, month: { gross: { amount: number } }) => total + month.gross.amount, 0)
  const fee = earnings.months.reduce((total: number, month: { fee: { amount: number } }) => total + month.fee.amount, 0)
  const testGross = earnings.months.reduce((total: number, month: { testGross: { amount: number } }) => total + month.testGross.amount, 0)
  t.equal(gross, 9599 + 1500)
  t.equal(fee, 20 + 400 + 500 + 1000 + 300, 'the fee of each line: 20 % of 100, 1999, 2500, 5000 and 1500, half up')
  t.equal(testGross, 2500)
  t.match(earnings, { payingInstallations: 0, monthlyRecurringRevenue: usd(0), platformFeePercent: 20 })
  const csv = await app.inject({ url: `/developer/apps/${priced.appId}/earnings.csv`, headers: priced.developer.auth })
  t.match(csv.headers['content-type'], /^text\/csv/)
  const rows = csv.body.trim().split('\r\n')
  t.equal(rows[0], 'invoice_id,business_id,period_start,period_end,charge_id,kind,description,amount,currency,fee,net')
  t.equal(rows.length, 1 + 5, 'one row per invoice line')
  t.match(rows[1], new RegExp(`,${pro.id},RECURRING,.*,1500,USD,300,1200$`))
  t.equal((await app.inject({ url: `/developer/apps/${priced.appId}/earnings`, headers: (await registerUser(app, 'DEVELOPER')).auth })).statusCode, 404, 'another developer')
})
