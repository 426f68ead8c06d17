import { and, eq, gte, lt, sql } from 'drizzle-orm'
import type { Clock } from '../../server/clock.ts'
import type { Db, Executor } from '../../server/db/client.ts'
import { appCharges, appUsageRecords, billingAccounts } from '../../server/db/schema/index.ts'
import { emitEvent } from '../../server/events.ts'
import { recordActivity } from '../../server/activity.ts'
import type { BillingMoney, MerchantCharge, Purchase, Subscription } from '../../sdk/src/contract/billing.ts'
import type { AppRow, AppsService } from '../apps/service.ts'

export type ChargeRow = typeof appCharges.$inferSelect
export type AccountRow = typeof billingAccounts.$inferSelect

/** Billing days: the 30-day cycle, the 2-day expiry of a pending charge and the 365-day year (BILLING_DAY_SECONDS). */
export const CYCLE_DAYS = 30
export const PENDING_DAYS = 2
export const YEAR_DAYS = 365

/** What billing's functions run against. */
export interface BillingContext {
  db: Db
  clock: Clock
  /** The length of a billing day in milliseconds (BILLING_DAY_SECONDS × 1000). */
  dayMs: number
  currency: string
  platformFeePercent: number
  /** The admin's URL (ADMIN_URL), read when a confirmation URL is made. */
  adminUrl: () => string
  /** The apps' pricing and URLs; `in(tx)` inside a transaction (on the embedded database, one connection serves it). */
  apps: Pick<AppsService, 'findById' | 'findByIds' | 'in'>
}

export const cycleMs = (context: BillingContext): number => CYCLE_DAYS * context.dayMs

export const money = (amount: number, currency: string): BillingMoney => ({ amount, currency })
const iso = (date: Date | null): string | null => date === null ? null : date.toISOString()

/** The 30-day period containing `at`, counted from `anchor`. */
export function periodAround (anchor: Date, at: Date, lengthMs: number): { start: Date, end: Date } {
  const steps = Math.max(0, Math.floor((at.getTime() - anchor.getTime()) / lengthMs))
  const start = new Date(anchor.getTime() + steps * lengthMs)
  return { start, end: new Date(start.getTime() + lengthMs) }
}

/**
 * The usage period of a subscription at `at`: the business's billing cycle for a charge that is
 * invoiced, the subscription's own 30-day periods from its approval for a test charge (a business with
 * only test charges has no cycle).
 */
export function usagePeriod (context: BillingContext, charge: ChargeRow, account: AccountRow | null, at: Date): { start: Date, end: Date } | null {
  if (!charge.test && account !== null) return periodAround(account.cycleStart, at, cycleMs(context))
  if (charge.activatedAt === null) return null
  return periodAround(charge.activatedAt, at, cycleMs(context))
}

export async function accountOf (executor: Executor, businessId: string): Promise<AccountRow | null> {
  const [row] = await executor.select().from(billingAccounts).where(eq(billingAccounts.businessId, businessId)).limit(1)
  return row ?? null
}

/** The usage recorded on a subscription in [start, end). */
export async function usageIn (executor: Executor, chargeId: string, period: { start: Date, end: Date }): Promise<number> {
  const [row] = await executor.select({ used: sql<string>`coalesce(sum(${appUsageRecords.amount}), 0)` }).from(appUsageRecords)
    .where(and(eq(appUsageRecords.chargeId, chargeId), gte(appUsageRecords.createdAt, period.start), lt(appUsageRecords.createdAt, period.end)))
  return Number(row.used)
}

/** A charge's facts that depend on time and the business: its usage balance and the end of its current period. */
export interface ChargeState {
  usage: { used: number, period: { start: Date, end: Date } } | null
  currentPeriodEnd: Date | null
}

export async function stateOf (executor: Executor, context: BillingContext, charge: ChargeRow, account?: AccountRow | null): Promise<ChargeState> {
  if (charge.kind !== 'SUBSCRIPTION' || charge.status !== 'ACTIVE') return { usage: null, currentPeriodEnd: null }
  const now = context.clock.now()
  const period = usagePeriod(context, charge, account === undefined ? await accountOf(executor, charge.businessId) : account, now)
  if (period === null) return { usage: null, currentPeriodEnd: null }
  const used = charge.usageCap === null ? 0 : await usageIn(executor, charge.id, period)
  return { usage: charge.usageCap === null ? null : { used, period }, currentPeriodEnd: period.end }
}

export const confirmationUrlOf = (context: BillingContext, id: string): string => `${context.adminUrl().replace(/\/+$/, '')}/admin/charges/${encodeURIComponent(id)}`

function usageOf (charge: ChargeRow, state: ChargeState) {
  if (charge.usageCap === null) return null
  const used = state.usage?.used ?? 0
  return {
    cappedAmount: money(charge.usageCap, charge.currency),
    terms: charge.usageTerms ?? '',
    balanceUsed: money(used, charge.currency),
    balanceRemaining: money(Math.max(0, charge.usageCap - used), charge.currency)
  }
}

/** A subscription as the App API (and its webhook) shows it. */
export function presentSubscription (context: BillingContext, charge: ChargeRow, state: ChargeState): Subscription {
  return {
    id: charge.id,
    status: charge.status,
    planId: charge.planId,
    name: charge.name,
    price: money(charge.amount, charge.currency),
    interval: charge.interval ?? 'EVERY_30_DAYS',
    trialDays: charge.trialDays,
    trialEndsAt: charge.status === 'PENDING' ? null : iso(charge.trialEndsAt),
    usage: usageOf(charge, state),
    test: charge.test,
    confirmationUrl: confirmationUrlOf(context, charge.id),
    currentPeriodEnd: iso(state.currentPeriodEnd),
    replacedBy: charge.replacedBy,
    createdAt: charge.createdAt.toISOString()
  }
}

/** A one-time purchase as the App API (and its webhook) shows it. */
export function presentPurchase (context: BillingContext, charge: ChargeRow): Purchase {
  return {
    id: charge.id,
    status: charge.status,
    planId: charge.planId,
    name: charge.name,
    price: money(charge.amount, charge.currency),
    test: charge.test,
    confirmationUrl: confirmationUrlOf(context, charge.id),
    createdAt: charge.createdAt.toISOString()
  }
}

/** A charge as the merchant's admin shows it, with its app. */
export function presentMerchantCharge (charge: ChargeRow, state: ChargeState, app: Pick<AppRow, 'id' | 'name' | 'iconUrl'> | undefined): MerchantCharge {
  return {
    id: charge.id,
    kind: charge.kind,
    status: charge.status,
    app: { id: charge.appId, name: app?.name ?? 'Removed app', iconUrl: app?.iconUrl ?? null },
    installationId: charge.installationId,
    planId: charge.planId,
    name: charge.name,
    price: money(charge.amount, charge.currency),
    interval: charge.interval,
    trialDays: charge.trialDays,
    trialEndsAt: charge.status === 'PENDING' ? null : iso(charge.trialEndsAt),
    usage: usageOf(charge, state),
    test: charge.test,
    returnUrl: charge.returnUrl,
    expiresAt: charge.status === 'PENDING' ? charge.expiresAt.toISOString() : null,
    currentPeriodEnd: iso(state.currentPeriodEnd),
    replacedBy: charge.replacedBy,
    createdAt: charge.createdAt.toISOString()
  }
}

/** The activity log's verb for the status a charge just took, and the status it left (each has one way in). */
const STATUS_ACTIONS: Partial<Record<ChargeRow['status'], { action: string, from: ChargeRow['status'] }>> = {
  ACTIVE: { action: 'charge.approved', from: 'PENDING' },
  DECLINED: { action: 'charge.declined', from: 'PENDING' },
  EXPIRED: { action: 'charge.expired', from: 'PENDING' },
  CANCELLED: { action: 'charge.cancelled', from: 'ACTIVE' }
}

/** A charge's change in the business's activity log (DESIGN §24), in the change's transaction. */
export async function recordChargeActivity (executor: Executor, charge: ChargeRow, action: string, changes: Record<string, unknown> = {}): Promise<void> {
  await recordActivity(executor, {
    businessId: charge.businessId, action, resource: { type: 'charge', id: charge.id },
    changes: { kind: charge.kind, name: charge.name, amount: charge.amount, currency: charge.currency, appId: charge.appId, ...changes }
  })
}

/**
 * `app_subscription.updated` or `app_purchase.updated` to the app's webhook, in the change's transaction,
 * and the status change in the business's activity log.
 */
export async function announceCharge (executor: Executor, context: BillingContext, charge: ChargeRow): Promise<void> {
  const moved = STATUS_ACTIONS[charge.status]
  if (moved !== undefined) await recordChargeActivity(executor, charge, moved.action, { status: { from: moved.from, to: charge.status } })
  const subscription = charge.kind === 'SUBSCRIPTION'
  const data = subscription ? presentSubscription(context, charge, await stateOf(executor, context, charge)) : presentPurchase(context, charge)
  await emitEvent(executor, {
    businessId: charge.businessId,
    event: subscription ? 'app_subscription.updated' : 'app_purchase.updated',
    data: data as unknown as Record<string, unknown>,
    installationId: charge.installationId
  })
}
