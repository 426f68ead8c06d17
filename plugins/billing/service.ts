import type { FastifyInstance } from 'fastify'
import { and, asc, eq, gt, inArray } from 'drizzle-orm'
import type { Tx } from '../../server/db/client.ts'
import { appCharges } from '../../server/db/schema/index.ts'
import type { Apps } from '../apps/service.ts'
import type { Guards } from '../auth/guards.ts'
import type { Installations } from '../installations/service.ts'
import {
  cancelByApp, cancelByMerchant, chargeOfBusiness, chargeOfInstallation, createCharge, current, decide, endForUninstall, expireDue, listOfInstallation,
  recordUsage, type Caller, type Decision
} from './charges.ts'
import { accountOf, presentMerchantCharge, presentPurchase, presentSubscription, stateOf, type BillingContext, type ChargeRow } from './context.ts'
import type { CreateChargeBody, Subscription } from '../../sdk/src/contract/billing.ts'

type PageQuery = { page?: number, limit?: number }
import { earningsCsv, earningsOf } from './earnings.ts'
import { closeDueCycles, invoicesOf, nextInvoiceOf } from './invoices.ts'

export type { Caller }

/** What billing needs of the others: the apps' pricing and URLs, the uninstall to follow, the session guards. */
export interface BillingNeeds {
  apps: Pick<Apps, 'findById' | 'findByIds' | 'ownedApp' | 'in'>
  installations: Pick<Installations, 'onUninstalling'>
  guards: Pick<Guards, 'requireRole' | 'requireMerchant'>
}

/** The billing job: expires pending charges and closes ended cycles; every minute on the worker. */
export const BILLING_JOB = 'billing.due'
const BILLING_CRON = '* * * * *'

export function createBilling (context: BillingContext) {
  /** Merchant charges with their apps. */
  async function presentForMerchant (rows: ChargeRow[], businessId: string) {
    const apps = new Map((await context.apps.findByIds([...new Set(rows.map((row) => row.appId))])).map((app) => [app.id, app]))
    const account = await accountOf(context.db, businessId)
    return await Promise.all(rows.map(async (row) => presentMerchantCharge(row, await stateOf(context.db, context, row, account), apps.get(row.appId))))
  }

  const subscriptionOf = async (row: ChargeRow): Promise<Subscription> => presentSubscription(context, row, await stateOf(context.db, context, row))

  return {
    /** App API: a subscription or a purchase asked for, PENDING. */
    createSubscription: async (caller: Caller, body: CreateChargeBody) => await subscriptionOf(await createCharge(context, caller, 'SUBSCRIPTION', body)),
    createPurchase: async (caller: Caller, body: CreateChargeBody) => presentPurchase(context, await createCharge(context, caller, 'PURCHASE', body)),
    listSubscriptions: async (caller: Caller, query: PageQuery) => {
      const page = await listOfInstallation(context, caller, 'SUBSCRIPTION', query)
      const account = await accountOf(context.db, caller.businessId)
      const data = await Promise.all(page.data.map(async (row) => presentSubscription(context, row, await stateOf(context.db, context, row, account))))
      return { ...page, data }
    },
    listPurchases: async (caller: Caller, query: PageQuery) => {
      const page = await listOfInstallation(context, caller, 'PURCHASE', query)
      return { ...page, data: page.data.map((row) => presentPurchase(context, row)) }
    },
    getSubscription: async (caller: Caller, id: string) =>
      await subscriptionOf(await current(context, await chargeOfInstallation(context.db, caller, 'SUBSCRIPTION', id))),
    cancelByApp: async (caller: Caller, id: string) => await subscriptionOf(await cancelByApp(context, caller, id)),
    recordUsage: async (caller: Caller, id: string, body: Parameters<typeof recordUsage>[3]) => await recordUsage(context, caller, id, body),

    /** The merchant's billing page: ACTIVE subscriptions, charges waiting for a decision, usage against caps, the next invoice. */
    async merchantBilling (businessId: string) {
      const now = context.clock.now()
      const [active, pending] = await Promise.all([
        context.db.select().from(appCharges).where(and(eq(appCharges.businessId, businessId), eq(appCharges.kind, 'SUBSCRIPTION'), eq(appCharges.status, 'ACTIVE')))
          .orderBy(asc(appCharges.activatedAt), asc(appCharges.id)),
        context.db.select().from(appCharges).where(and(eq(appCharges.businessId, businessId), eq(appCharges.status, 'PENDING'), gt(appCharges.expiresAt, now)))
          .orderBy(asc(appCharges.createdAt), asc(appCharges.id))
      ])
      const subscriptions = await presentForMerchant(active, businessId)
      return {
        subscriptions,
        pending: await presentForMerchant(pending, businessId),
        usage: subscriptions.flatMap((charge) => charge.usage === null
          ? []
          : [{ subscriptionId: charge.id, used: charge.usage.balanceUsed, cap: charge.usage.cappedAmount }]),
        nextInvoiceAt: nextInvoiceOf(await accountOf(context.db, businessId))
      }
    },
    async merchantCharge (businessId: string, id: string) {
      const [charge] = await presentForMerchant([await current(context, await chargeOfBusiness(context.db, businessId, id))], businessId)
      return charge
    },
    /** Approve or decline: the charge, and where the merchant's browser goes next (returnUrl with charge_id and status). */
    async decide (businessId: string, id: string, decision: Decision) {
      const decided = await decide(context, businessId, id, decision)
      const [charge] = await presentForMerchant([decided], businessId)
      const redirect = new URL(decided.returnUrl)
      redirect.searchParams.set('charge_id', decided.id)
      redirect.searchParams.set('status', decided.status)
      return { ...charge, redirectUrl: redirect.toString() }
    },
    async cancelByMerchant (businessId: string, id: string) {
      const [charge] = await presentForMerchant([await cancelByMerchant(context, businessId, id)], businessId)
      return charge
    },
    invoices: async (businessId: string, query: { page?: number, limit?: number }) => await invoicesOf(context, businessId, query),
    earnings: async (appId: string, months: number) => await earningsOf(context, appId, months),
    earningsCsv: async (appId: string) => await earningsCsv(context, appId),

    /** In an uninstall's transaction: the installation's subscriptions are cancelled, its pending charges expire. */
    endForUninstall: async (tx: Tx, installationId: string) => { await endForUninstall(tx, context, installationId) },
    /**
     * What the billing job does, at the clock's now: pending charges past their 48 hours expire, ended
     * cycles get their invoices. Tests call it after moving the clock.
     */
    async runDue () {
      let expired = 0
      for (let batch = await expireDue(context); batch > 0; batch = await expireDue(context)) expired += batch
      const invoices: string[] = []
      for (let batch = await closeDueCycles(context); batch.length > 0; batch = await closeDueCycles(context)) invoices.push(...batch)
      return { expired, invoices }
    },
    /** The charges of these ids that are ACTIVE (for tests and the demo). */
    activeIds: async (ids: string[]) => ids.length === 0
      ? []
      : (await context.db.select({ id: appCharges.id }).from(appCharges).where(and(inArray(appCharges.id, ids), eq(appCharges.status, 'ACTIVE')))).map((row) => row.id)
  }
}

export type Billing = ReturnType<typeof createBilling>

/** Billing over the server's database and clock, following uninstalls, with its job on worker processes. */
export async function startBilling (fastify: FastifyInstance, { apps, installations }: BillingNeeds): Promise<Billing> {
  const context: BillingContext = {
    db: fastify.db,
    clock: fastify.clock,
    dayMs: fastify.config.billingDaySeconds * 1000,
    currency: fastify.config.billingCurrency,
    platformFeePercent: fastify.config.platformFeePercent,
    adminUrl: () => fastify.origins.adminUrl,
    apps
  }
  const billing = createBilling(context)
  installations.onUninstalling.push(async (tx, installation) => { await billing.endForUninstall(tx, installation.id) })
  if (fastify.config.processRole !== 'web') {
    await fastify.jobs.work(BILLING_JOB, async () => {
      const { expired, invoices } = await billing.runDue()
      if (expired > 0 || invoices.length > 0) fastify.log.info({ expired, invoices: invoices.length }, 'billing: charges expired, invoices written')
    })
    await fastify.jobs.boss.schedule(BILLING_JOB, BILLING_CRON)
  }
  return billing
}
