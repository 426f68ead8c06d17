import t from 'tap'
import {
  AppApiError, createAppApiClient, verifyWebhook,
  type AppSubscriptionEventData, type ChargeStatus, type ErrorCode, type Purchase, type Subscription, type UsageRecord
} from '../../sdk/src/index.ts'
import { build, listen, REVIEWER_ENV } from '../helper.ts'
import { receiver } from '../plugins/webhooks/helpers.ts'
import { decide, merchantWith, pricedApp, RETURN_URL, usd } from '../plugins/billing/helpers.ts'

/** The error a call threw (tap's rejects patterns treat an `error` key specially). */
async function caught (promise: Promise<unknown>): Promise<AppApiError> {
  const result = await promise.then(() => null, (error: unknown) => error)
  if (!(result instanceof AppApiError)) throw new Error(`expected an AppApiError, got ${String(result)}`)
  return result
}

/**
 * The SDK's billing calls against a real platform (build + listen, real HTTP): a priced app asks for a
 * subscription, the merchant approves it, the app records usage up to its cap and hears of its charge.
 * tsc checks this file: the answers are the contract's types.
 */
t.test('client.billing: subscription, approval, usage and its cap, purchases, typed', async (t) => {
  const platform = await build(t, { env: { ...REVIEWER_ENV, RATE_LIMIT_PER_MINUTE: '1000000' } })
  const baseUrl = await listen(platform)
  const hooks = await receiver(t)
  const priced = await pricedApp(platform, { webhookUrl: hooks.url })
  const { merchant, installed } = await merchantWith(platform, priced)
  const api = createAppApiClient({ baseUrl, accessToken: installed.accessToken })

  const asked: Subscription = await api.billing.createSubscription({ planId: 'basic', returnUrl: RETURN_URL })
  const pending: ChargeStatus = asked.status
  t.equal(pending, 'PENDING')
  t.match(asked, { id: /^sub_/, planId: 'basic', price: usd(999), interval: 'EVERY_30_DAYS', trialDays: 7, trialEndsAt: null, test: false })
  t.equal(asked.confirmationUrl, `${platform.origins.adminUrl.replace(/\/$/, '')}/admin/charges/${asked.id}`, 'where the merchant approves')
  t.same(asked.usage?.balanceRemaining, usd(5000))

  t.test('refusals carry their code', async (t) => {
    const unknown = await caught(api.billing.createSubscription({ planId: 'platinum', returnUrl: RETURN_URL }))
    const code: ErrorCode | null = unknown.code
    t.match(unknown, { statusCode: 400, code: 'plan_unknown' })
    t.ok(code)
    t.match(await caught(api.billing.createPurchase({ planId: 'basic', returnUrl: RETURN_URL })), { statusCode: 400, code: 'plan_kind_mismatch' })
    t.match(await caught(api.billing.createSubscription({ planId: 'basic', returnUrl: 'https://elsewhere.example/back' })), { statusCode: 400 })
    t.match(await caught(api.billing.getSubscription('sub_nobody')), { statusCode: 404 })
    const early = await caught(api.billing.createUsageRecord(asked.id, { description: 'Labels', price: usd(10), idempotencyKey: 'early' }))
    t.match(early, { statusCode: 409, code: 'charge_not_active' }, 'no usage before the merchant approves')
  })

  t.test('approved: usage up to the cap, once per key', async (t) => {
    const approved = await decide(platform, merchant, asked.id)
    t.equal(approved.status, 'ACTIVE')
    const active = await api.billing.getSubscription(asked.id)
    t.equal(active.status, 'ACTIVE')
    t.type(active.trialEndsAt, 'string', 'the trial runs from the approval')
    t.same((await api.billing.listSubscriptions()).data.map((s) => s.id), [asked.id])

    const first: UsageRecord = await api.billing.createUsageRecord(asked.id, { description: 'Order ord_1', price: usd(3000), idempotencyKey: 'ord_1' })
    t.match(first, { id: /^use_/, price: usd(3000), balanceUsed: usd(3000), balanceRemaining: usd(2000) })
    const again = await api.billing.createUsageRecord(asked.id, { description: 'Order ord_1', price: usd(3000), idempotencyKey: 'ord_1' })
    t.equal(again.id, first.id, 'the same key answers the first record')
    t.same(again.balanceUsed, usd(3000), 'and records nothing')

    const over = await caught(api.billing.createUsageRecord(asked.id, { description: 'Order ord_2', price: usd(2001), idempotencyKey: 'ord_2' }))
    t.match(over, { statusCode: 422, code: 'usage_cap_exceeded' })
    t.match(over.body, { balanceRemaining: usd(2000) }, 'the error body says what is left')
    t.same((await api.billing.getSubscription(asked.id)).usage?.balanceUsed, usd(3000), 'nothing recorded past the cap')

    // @ts-expect-error the idempotency key is required: a retry must never charge twice
    await caught(api.billing.createUsageRecord(asked.id, { description: 'Order ord_3', price: usd(1) }))
  })

  t.test('the app hears of its charge at its webhook', async (t) => {
    const [delivery] = await hooks.waitFor(1)
    const event = verifyWebhook(delivery.body, delivery.headers, installed.webhookSecret)
    t.equal(event.event, 'app_subscription.updated')
    const data = event.data as unknown as AppSubscriptionEventData
    t.match(data, { id: asked.id, status: 'ACTIVE', planId: 'basic' })
  })

  t.test('purchases, and a cancellation', async (t) => {
    const purchase: Purchase = await api.billing.createPurchase({ planId: 'setup', returnUrl: RETURN_URL, test: true })
    t.match(purchase, { id: /^pur_/, status: 'PENDING', price: usd(2500), test: true })
    t.same((await api.billing.listPurchases({ limit: 10 })).data.map((p) => p.id), [purchase.id])

    const cancelled = await api.billing.cancelSubscription(asked.id)
    t.equal(cancelled.status, 'CANCELLED')
    t.match(await caught(api.billing.cancelSubscription(asked.id)), { statusCode: 409, code: 'charge_not_active' })
  })
})
