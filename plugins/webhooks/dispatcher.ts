import { and, asc, eq, inArray, isNull, sql } from 'drizzle-orm'
import { apps, installations, webhookDeliveries, webhooks } from '../../server/db/schema/index.ts'
import type { Db, Tx } from '../../server/db/client.ts'
import { newId } from '../../server/db/ids.ts'
import { EVENT_SCOPES, markDispatched, takeUndispatched, type EventName, type OutboxRow } from '../../server/events.ts'
import type { AttemptItem } from './attempt-queue.ts'
import type { Claimed } from './delivery.ts'

/** Outbox events taken per transaction. */
export const DISPATCH_BATCH = 200

type NewDelivery = typeof webhookDeliveries.$inferInsert
interface Target {
  id: string
  installationId: string
  appId: string
  businessId: string
  events: string[]
  scopes: string[]
  /** What the first attempt needs, read here so that it does not have to claim the delivery again. */
  url: string
  secretEncrypted: string
  isActive: boolean
  appWebhookUrl: string | null
}

/** The registration may receive the event: subscribed, and the installation holds the event's scope. */
function wants (target: Target, event: string): boolean {
  if (!target.events.includes(event)) return false
  const scope = EVENT_SCOPES[event as EventName]
  return scope === null || (scope !== undefined && target.scopes.includes(scope))
}

/** The delivery row, written already claimed: the lease taken and its first attempt counted. */
function delivery (event: OutboxRow, target: Target, leaseUntil: ReturnType<typeof sql>): NewDelivery {
  return {
    id: newId('dlv'),
    webhookId: target.id,
    installationId: target.installationId,
    appId: target.appId,
    businessId: target.businessId,
    eventId: event.id,
    event: event.event,
    data: event.data,
    occurredAt: event.createdAt,
    attempts: 1,
    cycleAttempts: 1,
    nextAttemptAt: sql`now()` as unknown as Date,
    lockedUntil: leaseUntil as unknown as Date
  }
}

function claimedOf (row: NewDelivery, target: Target): Claimed {
  return {
    id: row.id as string,
    webhookId: target.id,
    appId: target.appId,
    installationId: target.installationId,
    businessId: target.businessId,
    event: row.event,
    data: row.data as Record<string, unknown>,
    attempts: 1,
    cycleAttempts: 1,
    occurredAt: row.occurredAt as Date,
    url: target.url,
    secretEncrypted: target.secretEncrypted,
    isActive: target.isActive,
    appWebhookUrl: target.appWebhookUrl
  }
}

/**
 * business.data_erasure goes to the app's webhookUrl whatever the scopes and the registration's state
 * (after an uninstall it is inactive). It rides on the installation's own app registration, which is
 * created (inactive) when the app had no webhookUrl at install time.
 */
async function erasureTarget (tx: Tx, event: OutboxRow): Promise<Target | null> {
  const [row] = await tx.select({ installation: installations, webhookUrl: apps.webhookUrl }).from(installations)
    .innerJoin(apps, eq(apps.id, installations.appId)).where(eq(installations.id, event.installationId as string)).limit(1)
  if (row === undefined || row.webhookUrl === null) return null
  const { installation } = row
  const base = {
    installationId: installation.id, appId: installation.appId, businessId: installation.businessId, events: [event.event], scopes: [],
    appWebhookUrl: row.webhookUrl
  }
  const [own] = await tx.select({ id: webhooks.id, url: webhooks.url, secretEncrypted: webhooks.secretEncrypted, isActive: webhooks.isActive }).from(webhooks)
    .where(and(eq(webhooks.installationId, installation.id), eq(webhooks.isAppWebhook, true))).orderBy(asc(webhooks.createdAt)).limit(1)
  if (own !== undefined) return { ...own, ...base }
  const id = newId('wh')
  const isActive = installation.uninstalledAt === null
  await tx.insert(webhooks).values({
    id, installationId: installation.id, appId: installation.appId, businessId: installation.businessId, url: row.webhookUrl,
    secretEncrypted: installation.webhookSecretEncrypted, events: [], description: 'App webhook (from the app settings)',
    isAppWebhook: true, isActive, disabledReason: isActive ? null : 'App uninstalled'
  })
  return { id, url: row.webhookUrl, secretEncrypted: installation.webhookSecretEncrypted, isActive, ...base }
}

/**
 * Takes a batch of undispatched outbox events (SKIP LOCKED: concurrent dispatchers take disjoint
 * batches), writes one delivery per (event, registration), and stamps the events dispatched, in one
 * transaction. The deliveries are written claimed by this process (leased until leaseMs from now,
 * first attempt counted) and come back with what their first attempt needs, so it goes out without
 * another query; if this process dies first, the lease runs out and the sweep attempts them. The
 * unique (event, registration) key makes a second run a no-op.
 */
export async function dispatchBatch (db: Db, leaseMs: number, limit = DISPATCH_BATCH): Promise<{ events: number, items: AttemptItem[] }> {
  return await db.transaction(async (tx) => {
    const events = await takeUndispatched(tx, limit)
    if (events.length === 0) return { events: 0, items: [] }
    const leaseUntil = sql`now() + ${leaseMs}::int * interval '1 millisecond'`
    const planned: Array<{ row: NewDelivery, target: Target }> = []
    const add = (event: OutboxRow, target: Target) => { planned.push({ row: delivery(event, target, leaseUntil), target }) }

    const businessIds = [...new Set(events.filter((e) => e.installationId === null || e.event !== 'business.data_erasure').map((e) => e.businessId))]
    const byBusiness = new Map<string, Target[]>()
    if (businessIds.length > 0) {
      const targets = await tx.select({
        id: webhooks.id, installationId: webhooks.installationId, appId: webhooks.appId, businessId: webhooks.businessId, events: webhooks.events,
        scopes: installations.grantedScopes,
        url: webhooks.url, secretEncrypted: webhooks.secretEncrypted, isActive: webhooks.isActive, appWebhookUrl: apps.webhookUrl
      }).from(webhooks).innerJoin(installations, eq(installations.id, webhooks.installationId)).innerJoin(apps, eq(apps.id, webhooks.appId))
        .where(and(inArray(webhooks.businessId, businessIds), eq(webhooks.isActive, true), isNull(installations.uninstalledAt)))
        .orderBy(asc(webhooks.createdAt))
      for (const target of targets) byBusiness.set(target.businessId, [...(byBusiness.get(target.businessId) ?? []), target])
    }

    for (const event of events) {
      if (event.event === 'business.data_erasure' && event.installationId !== null) {
        const target = await erasureTarget(tx, event)
        if (target !== null) add(event, target)
        continue
      }
      for (const target of byBusiness.get(event.businessId) ?? []) {
        if (event.installationId !== null && target.installationId !== event.installationId) continue
        if (wants(target, event.event)) add(event, target)
      }
    }

    const inserted = planned.length === 0
      ? []
      : await tx.insert(webhookDeliveries).values(planned.map(({ row }) => row))
        .onConflictDoNothing({ target: [webhookDeliveries.eventId, webhookDeliveries.webhookId] })
        .returning({ id: webhookDeliveries.id })
    await markDispatched(tx, events)
    const written = new Set(inserted.map(({ id }) => id))
    return {
      events: events.length,
      items: planned.filter(({ row }) => written.has(row.id as string)).map(({ row, target }) => ({ id: row.id as string, claimed: claimedOf(row, target) }))
    }
  })
}
