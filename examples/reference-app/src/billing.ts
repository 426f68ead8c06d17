import { AppApiError, type AppSubscriptionEventData, type PricingPlan, type Subscription, type UsageRecord } from '@app-platform/sdk'
import type { Context } from './context.ts'
import { appDefinition } from './manifest.ts'
import type { Installation } from './store.ts'

/*
 * App billing (DESIGN §23): the merchant upgrades to our Pro plan (app.manifest.json listing.pricing),
 * approves the charge in the platform's admin, and we record usage for every order we process, keyed
 * by the order id so a retried webhook never charges twice. What the merchant is on is always read
 * from the App API (or its signed app_subscription.updated event), never from a URL.
 */

export const PAID_PLAN_ID = 'pro'
/** One usage record per order processed: 0.10 in the plan's currency. */
export const USAGE_PER_ORDER = 10
export const RETURN_PATH = '/billing/return'

let declared: PricingPlan | null = null

/** Our paid plan as the listing declares it (read once from app.manifest.json). */
export function paidPlan (): PricingPlan {
  declared ??= appDefinition('').listing.pricing.plans.find((candidate) => candidate.id === PAID_PLAN_ID) ?? null
  if (declared === null) throw new Error(`app.manifest.json has no "${PAID_PLAN_ID}" plan`)
  return declared
}

/** Where the platform sends the merchant back: our own origin, the business in the query (the charge id comes with it). */
export const returnUrl = (context: Context, installation: Installation): string =>
  `${context.urls.appUrl}${RETURN_PATH}?businessId=${encodeURIComponent(installation.businessId)}`

/** Which of two subscriptions of a business to remember: the ACTIVE one wins, else the newest. */
function preferred (kept: Subscription | null, incoming: Subscription): Subscription {
  if (kept === null || kept.id === incoming.id || incoming.status === 'ACTIVE') return incoming
  if (kept.status === 'ACTIVE') return kept
  return Date.parse(incoming.createdAt) >= Date.parse(kept.createdAt) ? incoming : kept
}

export function remember (context: Context, businessId: string, subscription: Subscription): Subscription {
  const chosen = preferred(context.store.subscription(businessId), subscription)
  context.store.saveSubscription(businessId, chosen)
  return chosen
}

/** app_subscription.updated: the charge as the App API shows it, in a signed delivery. */
export function onSubscriptionEvent (context: Context, businessId: string, data: AppSubscriptionEventData): void {
  remember(context, businessId, data)
}

/** The subscription the business is on (ACTIVE), else the one waiting for approval, from the App API; null on the free plan. */
export async function currentSubscription (context: Context, installation: Installation): Promise<Subscription | null> {
  const { data } = await context.api(installation).billing.listSubscriptions({ limit: 10 })
  const current = data.find((subscription) => subscription.status === 'ACTIVE') ?? data.find((subscription) => subscription.status === 'PENDING') ?? null
  const kept = context.store.subscription(installation.businessId)
  // the list is the truth: what we kept may have ended since (cancelled, declined, expired)
  const latest = current ?? (kept === null ? null : data.find((subscription) => subscription.id === kept.id) ?? null)
  if (latest !== null) context.store.saveSubscription(installation.businessId, latest)
  return current
}

/** Asks for the paid plan; the merchant approves at `confirmationUrl`. */
export async function startUpgrade (context: Context, installation: Installation): Promise<Subscription> {
  const subscription = await context.api(installation).billing.createSubscription({ planId: PAID_PLAN_ID, returnUrl: returnUrl(context, installation) })
  return remember(context, installation.businessId, subscription)
}

/** The charge the merchant came back with, read from the App API (the query's status is only a hint). */
export async function returnedSubscription (context: Context, installation: Installation, chargeId: string): Promise<Subscription | null> {
  try {
    const subscription = await context.api(installation).billing.getSubscription(chargeId)
    remember(context, installation.businessId, subscription)
    return subscription
  } catch (error) {
    if (error instanceof AppApiError && error.statusCode === 404) return null
    throw error
  }
}

export type UsageOutcome = { recorded: UsageRecord } | { skipped: 'no_active_subscription' | 'cap_reached' }

/**
 * One usage record for an order we processed, keyed by the order id: a retried delivery (or a second
 * copy of the event) answers the first record. Past the plan's cap nothing is recorded and the order
 * goes on; any other failure is thrown, so the delivery fails and the platform retries it.
 */
export async function recordOrderUsage (context: Context, installation: Installation, order: { orderId: string, orderNumber: string }): Promise<UsageOutcome> {
  const subscription = context.store.subscription(installation.businessId)
  if (subscription === null || subscription.status !== 'ACTIVE' || subscription.usage === null) return { skipped: 'no_active_subscription' }
  try {
    const recorded = await context.api(installation).billing.createUsageRecord(subscription.id, {
      description: `Order #${order.orderNumber} processed`,
      price: { amount: USAGE_PER_ORDER, currency: subscription.usage.cappedAmount.currency },
      idempotencyKey: order.orderId
    })
    context.store.saveSubscription(installation.businessId, {
      ...subscription, usage: { ...subscription.usage, balanceUsed: recorded.balanceUsed, balanceRemaining: recorded.balanceRemaining }
    })
    return { recorded }
  } catch (error) {
    if (error instanceof AppApiError && error.code === 'usage_cap_exceeded') return { skipped: 'cap_reached' }
    if (error instanceof AppApiError && error.code === 'charge_not_active') {
      // cancelled or replaced since we last heard: ask which subscription holds now, and record against it
      if (await currentSubscription(context, installation) === null) return { skipped: 'no_active_subscription' }
      const current = context.store.subscription(installation.businessId)
      if (current !== null && current.id !== subscription.id) return await recordOrderUsage(context, installation, order)
      return { skipped: 'no_active_subscription' }
    }
    throw error
  }
}
