import { and, asc, count, desc, eq, inArray, lte, sql } from 'drizzle-orm'
import type { Executor, Tx } from '../../server/db/client.ts'
import { newId } from '../../server/db/ids.ts'
import { isUniqueViolation } from '../../server/db/rows.ts'
import { pageWindow } from '../../server/schemas.ts'
import { appCharges, appTrialUsage, appUsageRecords, billingAccounts } from '../../server/db/schema/index.ts'
import type { CreateChargeBody, PricingPlan, UsageRecord, UsageRecordBody } from '../../sdk/src/contract/billing.ts'
import type { CachedInstallation } from '../installations/service.ts'
import {
  accountOf, announceCharge, cycleMs, recordChargeActivity, money, PENDING_DAYS, usageIn, usagePeriod,
  type BillingContext, type ChargeRow
} from './context.ts'
import { badRequest, conflict, fieldError, notFound, unprocessable } from './errors.ts'

type ChargeKind = ChargeRow['kind']
/** The installation behind an App API call, as the token check found it. */
export type Caller = Pick<CachedInstallation, 'id' | 'appId' | 'businessId' | 'isTestInstall'>

const originOf = (url: string | null): string | null => {
  if (url === null) return null
  try { return new URL(url).origin } catch { return null }
}

/**
 * The plan an installation may charge: from the edited pricing on a test install, from the approved
 * pricing on a production one (DESIGN §23 "Settled details").
 */
async function planFor (context: BillingContext, caller: Caller, body: CreateChargeBody, kind: ChargeKind) {
  const app = await context.apps.findById(caller.appId)
  if (app === null) throw notFound('charge_not_found', 'App')
  const pricing = caller.isTestInstall ? app.pricing : app.approvedPricing
  const plan: PricingPlan | undefined = pricing?.plans.find((candidate) => candidate.id === body.planId)
  if (plan === undefined) throw badRequest('plan_unknown', `No plan "${body.planId}" in ${caller.isTestInstall ? 'the app\'s pricing' : 'the app\'s approved pricing'}`)
  if ((plan.kind === 'RECURRING') !== (kind === 'SUBSCRIPTION')) {
    throw badRequest('plan_kind_mismatch', plan.kind === 'RECURRING'
      ? `Plan "${plan.id}" is RECURRING: ask for it at /app-api/billing/subscriptions`
      : `Plan "${plan.id}" is ONE_TIME: ask for it at /app-api/billing/purchases`)
  }
  if (plan.price.currency !== context.currency || (plan.usage !== undefined && plan.usage.cappedAmount.currency !== context.currency)) {
    throw badRequest('currency_mismatch', `Plan "${plan.id}" is not priced in ${context.currency}, the platform's billing currency`)
  }
  const origins = [originOf(app.appUrl), originOf(app.redirectUrl)].filter((origin): origin is string => origin !== null)
  if (!origins.includes(originOf(body.returnUrl) ?? '')) {
    throw fieldError('return_url_foreign', '/returnUrl', `must be on the app's App URL or redirect URL origin (${origins.join(', ')})`)
  }
  return plan
}

/** An app asks for a subscription or a purchase: PENDING until the merchant decides, at most 2 billing days. */
export async function createCharge (context: BillingContext, caller: Caller, kind: ChargeKind, body: CreateChargeBody): Promise<ChargeRow> {
  const plan = await planFor(context, caller, body, kind)
  const now = context.clock.now()
  return await context.db.transaction(async (tx) => {
    const [row] = await tx.insert(appCharges).values({
      id: newId(kind === 'SUBSCRIPTION' ? 'sub' : 'pur'),
      kind,
      installationId: caller.id,
      appId: caller.appId,
      businessId: caller.businessId,
      planId: plan.id,
      name: plan.name,
      amount: plan.price.amount,
      currency: plan.price.currency,
      interval: kind === 'SUBSCRIPTION' ? plan.interval ?? 'EVERY_30_DAYS' : null,
      trialDays: plan.trialDays ?? 0,
      usageCap: plan.usage?.cappedAmount.amount ?? null,
      usageTerms: plan.usage?.terms ?? null,
      // a test install's charges are always test charges
      test: caller.isTestInstall || body.test === true,
      returnUrl: body.returnUrl,
      expiresAt: new Date(now.getTime() + PENDING_DAYS * context.dayMs),
      createdAt: now,
      updatedAt: now
    }).returning()
    await recordChargeActivity(tx, row, 'charge.created', { status: row.status, test: row.test })
    return row
  })
}

/** One of the installation's charges, or 404 (another installation's is as absent as a missing one). */
export async function chargeOfInstallation (executor: Executor, caller: Caller, kind: ChargeKind, id: string, lock = false): Promise<ChargeRow> {
  const query = executor.select().from(appCharges)
    .where(and(eq(appCharges.id, id), eq(appCharges.installationId, caller.id), eq(appCharges.kind, kind))).limit(1)
  const [row] = lock ? await query.for('update') : await query
  if (row === undefined) throw notFound('charge_not_found', kind === 'SUBSCRIPTION' ? 'Subscription' : 'Purchase')
  return row
}

/** The installation's charges of one kind, newest first, a page at a time. */
export async function listOfInstallation (context: BillingContext, caller: Caller, kind: ChargeKind, query: { page?: number, limit?: number }) {
  const { page, limit, offset } = pageWindow(query)
  const where = and(eq(appCharges.installationId, caller.id), eq(appCharges.kind, kind))
  const [data, [{ total }]] = await Promise.all([
    context.db.select().from(appCharges).where(where).orderBy(desc(appCharges.createdAt), desc(appCharges.id)).limit(limit).offset(offset),
    context.db.select({ total: count() }).from(appCharges).where(where)
  ])
  return { data, total, page, limit }
}

/** Adds the trial time a subscription used, up to `endedAt`, to what the business has used with the app. */
async function rememberTrial (tx: Tx, charge: ChargeRow, endedAt: Date): Promise<void> {
  if (charge.activatedAt === null || charge.trialEndsAt === null) return
  const usedMs = Math.min(endedAt.getTime(), charge.trialEndsAt.getTime()) - charge.activatedAt.getTime()
  if (usedMs <= 0) return
  await tx.insert(appTrialUsage).values({ appId: charge.appId, businessId: charge.businessId, usedMs })
    .onConflictDoUpdate({ target: [appTrialUsage.appId, appTrialUsage.businessId], set: { usedMs: sql`${appTrialUsage.usedMs} + ${usedMs}`, updatedAt: endedAt } })
}

/** ACTIVE → CANCELLED (cancelled, replaced or uninstalled), the trial used remembered, the app told. */
export async function endSubscription (tx: Tx, context: BillingContext, charge: ChargeRow, replacedBy: string | null = null): Promise<ChargeRow> {
  const now = context.clock.now()
  await rememberTrial(tx, charge, now)
  const [ended] = await tx.update(appCharges).set({ status: 'CANCELLED', endedAt: now, replacedBy, updatedAt: now })
    .where(eq(appCharges.id, charge.id)).returning()
  await announceCharge(tx, context, ended)
  return ended
}

/** The app cancels its subscription: 409 unless ACTIVE. */
export async function cancelByApp (context: BillingContext, caller: Caller, id: string): Promise<ChargeRow> {
  return await context.db.transaction(async (tx) => {
    const charge = await chargeOfInstallation(tx, caller, 'SUBSCRIPTION', id, true)
    if (charge.status !== 'ACTIVE') throw conflict('charge_not_active', `The subscription is ${charge.status}: only an ACTIVE one can be cancelled`)
    return await endSubscription(tx, context, charge)
  })
}

function presentUsage (record: typeof appUsageRecords.$inferSelect, cap: number, used: number): UsageRecord {
  return {
    id: record.id,
    description: record.description,
    price: money(record.amount, record.currency),
    createdAt: record.createdAt.toISOString(),
    balanceUsed: money(used, record.currency),
    balanceRemaining: money(Math.max(0, cap - used), record.currency)
  }
}

/**
 * Usage against an ACTIVE subscription's capped amount, under the charge's row lock: the same
 * idempotency key answers the first record (`created: false`), a record past the cap is refused
 * (422) and nothing is written. The lock makes two records with one key, or two that together pass
 * the cap, wait for each other; the unique key is the last guard.
 */
export async function recordUsage (
  context: BillingContext, caller: Caller, id: string, body: UsageRecordBody
): Promise<{ created: boolean, record: UsageRecord }> {
  if (body.price.currency !== context.currency) {
    throw fieldError('currency_mismatch', '/price/currency', `must be ${context.currency}, the platform's billing currency`)
  }
  try {
    return await context.db.transaction(async (tx) => {
      const charge = await chargeOfInstallation(tx, caller, 'SUBSCRIPTION', id, true)
      const [existing] = await tx.select().from(appUsageRecords)
        .where(and(eq(appUsageRecords.chargeId, charge.id), eq(appUsageRecords.idempotencyKey, body.idempotencyKey))).limit(1)
      const now = context.clock.now()
      const period = usagePeriod(context, charge, await accountOf(tx, charge.businessId), existing?.createdAt ?? now)
      const cap = charge.usageCap ?? 0
      if (existing !== undefined) return { created: false, record: presentUsage(existing, cap, period === null ? 0 : await usageIn(tx, charge.id, period)) }
      if (charge.status !== 'ACTIVE') throw conflict('charge_not_active', `The subscription is ${charge.status}: usage is recorded on an ACTIVE one`)
      if (charge.usageCap === null || period === null) throw unprocessable('usage_not_in_plan', `Plan "${charge.planId}" has no capped usage amount`)
      const used = await usageIn(tx, charge.id, period)
      if (used + body.price.amount > charge.usageCap) {
        throw unprocessable('usage_cap_exceeded', `The record would take this period's usage to ${used + body.price.amount} of a cap of ${charge.usageCap} (minor units)`, {
          balanceUsed: money(used, charge.currency), balanceRemaining: money(charge.usageCap - used, charge.currency)
        })
      }
      const [record] = await tx.insert(appUsageRecords).values({
        id: newId('use'), chargeId: charge.id, businessId: charge.businessId, appId: charge.appId, description: body.description,
        amount: body.price.amount, currency: body.price.currency, idempotencyKey: body.idempotencyKey, test: charge.test, createdAt: now
      }).returning()
      return { created: true, record: presentUsage(record, cap, used + record.amount) }
    })
  } catch (error) {
    // a concurrent record with the same key committed first: answer it
    if (!isUniqueViolation(error)) throw error
    const [first] = await context.db.select().from(appUsageRecords)
      .where(and(eq(appUsageRecords.chargeId, id), eq(appUsageRecords.idempotencyKey, body.idempotencyKey))).limit(1)
    const charge = await chargeOfInstallation(context.db, caller, 'SUBSCRIPTION', id)
    const period = usagePeriod(context, charge, await accountOf(context.db, charge.businessId), first.createdAt)
    return { created: false, record: presentUsage(first, charge.usageCap ?? 0, period === null ? 0 : await usageIn(context.db, charge.id, period)) }
  }
}

/** The business's charge (another business's is a 404). */
export async function chargeOfBusiness (executor: Executor, businessId: string, id: string, lock = false): Promise<ChargeRow> {
  const query = executor.select().from(appCharges).where(and(eq(appCharges.id, id), eq(appCharges.businessId, businessId))).limit(1)
  const [row] = lock ? await query.for('update') : await query
  if (row === undefined) throw notFound('charge_not_found', 'Charge')
  return row
}

/** The business's billing cycle starts at its first approved charge that is not a test. */
async function openAccount (tx: Tx, context: BillingContext, businessId: string, at: Date): Promise<void> {
  await tx.insert(billingAccounts).values({ businessId, cycleStart: at, nextInvoiceAt: new Date(at.getTime() + cycleMs(context)) })
    .onConflictDoNothing({ target: billingAccounts.businessId })
}

/** PENDING → EXPIRED, the app told. */
async function expire (tx: Tx, context: BillingContext, charge: ChargeRow): Promise<ChargeRow> {
  const now = context.clock.now()
  const [expired] = await tx.update(appCharges).set({ status: 'EXPIRED', decidedAt: now, updatedAt: now }).where(eq(appCharges.id, charge.id)).returning()
  await announceCharge(tx, context, expired)
  return expired
}

export type Decision = 'approve' | 'decline'

/**
 * The merchant approves or declines a PENDING charge. An approved subscription starts its trial
 * (what is left of the plan's trial days after those the business already used with the app) and
 * replaces the installation's ACTIVE one. A charge past its 48 hours is expired, then refused (409).
 */
export async function decide (context: BillingContext, businessId: string, id: string, decision: Decision): Promise<ChargeRow> {
  const outcome = await context.db.transaction(async (tx) => {
    const charge = await chargeOfBusiness(tx, businessId, id, true)
    if (charge.status !== 'PENDING') throw conflict('charge_not_pending', `The charge is ${charge.status}: it was already decided`)
    const now = context.clock.now()
    if (charge.expiresAt <= now) return { expired: await expire(tx, context, charge) }
    if (decision === 'decline') {
      const [declined] = await tx.update(appCharges).set({ status: 'DECLINED', decidedAt: now, updatedAt: now }).where(eq(appCharges.id, charge.id)).returning()
      await announceCharge(tx, context, declined)
      return { decided: declined }
    }
    if (!charge.test) await openAccount(tx, context, businessId, now)
    if (charge.kind === 'PURCHASE') {
      const [approved] = await tx.update(appCharges).set({ status: 'ACTIVE', decidedAt: now, activatedAt: now, updatedAt: now }).where(eq(appCharges.id, charge.id)).returning()
      await announceCharge(tx, context, approved)
      return { decided: approved }
    }
    const [previous] = await tx.select().from(appCharges)
      .where(and(eq(appCharges.installationId, charge.installationId), eq(appCharges.kind, 'SUBSCRIPTION'), eq(appCharges.status, 'ACTIVE'))).limit(1).for('update')
    if (previous !== undefined) await endSubscription(tx, context, previous, charge.id)
    const [trial] = await tx.select({ usedMs: appTrialUsage.usedMs }).from(appTrialUsage)
      .where(and(eq(appTrialUsage.appId, charge.appId), eq(appTrialUsage.businessId, charge.businessId))).limit(1)
    const trialLeftMs = Math.max(0, charge.trialDays * context.dayMs - (trial?.usedMs ?? 0))
    const [approved] = await tx.update(appCharges).set({
      status: 'ACTIVE', decidedAt: now, activatedAt: now, trialEndsAt: trialLeftMs > 0 ? new Date(now.getTime() + trialLeftMs) : null, updatedAt: now
    }).where(eq(appCharges.id, charge.id)).returning()
    await announceCharge(tx, context, approved)
    return { decided: approved }
  })
  if ('expired' in outcome) throw conflict('charge_expired', 'The charge waited 48 hours without a decision and expired: the app must ask again')
  return outcome.decided
}

/** The merchant cancels one of the business's ACTIVE subscriptions. */
export async function cancelByMerchant (context: BillingContext, businessId: string, id: string): Promise<ChargeRow> {
  return await context.db.transaction(async (tx) => {
    const charge = await chargeOfBusiness(tx, businessId, id, true)
    if (charge.kind !== 'SUBSCRIPTION') throw notFound('charge_not_found', 'Subscription')
    if (charge.status !== 'ACTIVE') throw conflict('charge_not_active', `The subscription is ${charge.status}: only an ACTIVE one can be cancelled`)
    return await endSubscription(tx, context, charge)
  })
}

/** An uninstall, in its transaction: the installation's subscriptions end and its pending charges expire. */
export async function endForUninstall (tx: Tx, context: BillingContext, installationId: string): Promise<void> {
  const open = await tx.select().from(appCharges)
    .where(and(eq(appCharges.installationId, installationId), inArray(appCharges.status, ['ACTIVE', 'PENDING']))).orderBy(asc(appCharges.createdAt)).for('update')
  for (const charge of open) {
    if (charge.status === 'PENDING') await expire(tx, context, charge)
    else if (charge.kind === 'SUBSCRIPTION') await endSubscription(tx, context, charge)
  }
}

/**
 * A charge as it stands now: a PENDING one past its 48 hours is expired on the read that finds it
 * (and the app told), so no screen offers a charge that can no longer be approved.
 */
export async function current (context: BillingContext, charge: ChargeRow): Promise<ChargeRow> {
  if (charge.status !== 'PENDING' || charge.expiresAt > context.clock.now()) return charge
  return await context.db.transaction(async (tx) => {
    const [locked] = await tx.select().from(appCharges).where(eq(appCharges.id, charge.id)).for('update')
    return locked.status === 'PENDING' ? await expire(tx, context, locked) : locked
  })
}

/** Expires the PENDING charges whose 48 hours have passed (the billing job). */
export async function expireDue (context: BillingContext, limit = 500): Promise<number> {
  return await context.db.transaction(async (tx) => {
    const due = await tx.select().from(appCharges)
      .where(and(eq(appCharges.status, 'PENDING'), lte(appCharges.expiresAt, context.clock.now()))).orderBy(asc(appCharges.expiresAt)).limit(limit)
      .for('update', { skipLocked: true })
    for (const charge of due) await expire(tx, context, charge)
    return due.length
  })
}
