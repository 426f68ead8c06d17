import { and, asc, eq, sql } from 'drizzle-orm'
import { apps, installations, webhookDeliveries, webhooks } from '../../server/db/schema/index.ts'
import type { Db, Tx } from '../../server/db/client.ts'
import { derivedId, newId } from '../../server/db/ids.ts'
import { namedRows } from '../../server/db/rows.ts'
import { EVENT_SCOPES, markDispatched, outboxDispatch, takeErasures, type OutboxRow } from '../../server/events.ts'
import { databaseNow, databaseNowPlus, type DatabaseTime } from '../../server/clock.ts'
import type { AttemptItem } from './attempt-queue.ts'
import type { Claimed } from './delivery.ts'
import type { SignatureScheme } from '../../sdk/src/contract/events.ts'
import type { ApiVersion } from '../../sdk/src/contract/api-version-names.ts'

/** Outbox events taken per transaction. */
export const DISPATCH_BATCH = 200

/** The row to insert; its next attempt and lease are the database's time. */
type NewDelivery = Omit<typeof webhookDeliveries.$inferInsert, 'nextAttemptAt' | 'lockedUntil'> & { nextAttemptAt: DatabaseTime, lockedUntil: DatabaseTime }
interface Target {
  id: string
  installationId: string
  appId: string
  businessId: string
  /** What the first attempt needs, read here so that it does not have to claim the delivery again. */
  url: string
  secretEncrypted: string
  isActive: boolean
  appWebhookUrl: string | null
  signatureScheme: SignatureScheme
  /** The registration's API version, else its installation's pinned one */
  apiVersion: ApiVersion
}

/** The delivery row, written already claimed: the lease taken and its first attempt counted. */
function delivery (event: OutboxRow, target: Target, leaseUntil: DatabaseTime): NewDelivery {
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
    traceParent: event.traceParent,
    attempts: 1,
    cycleAttempts: 1,
    nextAttemptAt: databaseNow(),
    lockedUntil: leaseUntil
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
    traceParent: row.traceParent ?? null,
    url: target.url,
    secretEncrypted: target.secretEncrypted,
    isActive: target.isActive,
    appWebhookUrl: target.appWebhookUrl,
    signatureScheme: target.signatureScheme,
    apiVersion: target.apiVersion
  }
}

/**
 * business.data_erasure goes to the app's webhookUrl whatever the scopes and the registration's state
 * (after an uninstall it is inactive). It rides on the installation's own app registration, which is
 * created (inactive) when the app had no webhookUrl at install time.
 */
async function erasureTarget (tx: Tx, event: OutboxRow): Promise<Target | null> {
  const [row] = await tx.select({ installation: installations, webhookUrl: apps.webhookUrl, signatureScheme: apps.webhookSignatureScheme }).from(installations)
    .innerJoin(apps, eq(apps.id, installations.appId)).where(eq(installations.id, event.installationId as string)).limit(1)
  if (row === undefined || row.webhookUrl === null) return null
  const { installation } = row
  const base = {
    installationId: installation.id, appId: installation.appId, businessId: installation.businessId,
    appWebhookUrl: row.webhookUrl, signatureScheme: row.signatureScheme, apiVersion: installation.apiVersion as ApiVersion
  }
  const [own] = await tx.select({
    id: webhooks.id, url: webhooks.url, secretEncrypted: webhooks.secretEncrypted, isActive: webhooks.isActive, apiVersion: webhooks.apiVersion
  }).from(webhooks)
    .where(and(eq(webhooks.installationId, installation.id), eq(webhooks.isAppWebhook, true))).orderBy(asc(webhooks.createdAt)).limit(1)
  if (own !== undefined) return { ...own, ...base, apiVersion: (own.apiVersion ?? base.apiVersion) as ApiVersion }
  const id = newId('wh')
  const isActive = installation.uninstalledAt === null
  await tx.insert(webhooks).values({
    id, installationId: installation.id, appId: installation.appId, businessId: installation.businessId, url: row.webhookUrl,
    secretEncrypted: installation.webhookSecretEncrypted, events: [], description: 'App webhook (from the app settings)',
    isAppWebhook: true, isActive, disabledReason: isActive ? null : 'App uninstalled'
  })
  return { id, url: row.webhookUrl, secretEncrypted: installation.webhookSecretEncrypted, isActive, ...base }
}

/** What the fan-out statement answers: the events it took, the deliveries to send, and whether erasures wait. */
interface FanOut {
  events: number
  erasures: boolean
  occurrences: Record<string, { event: string, data: Record<string, unknown>, occurredAt: string, traceParent: string | null, lease: string }> | null
  deliveries: Array<{
    eventId: string, webhookId: string, installationId: string, appId: string, businessId: string,
    url: string, secretEncrypted: string, appWebhookUrl: string | null, signatureScheme: SignatureScheme, apiVersion: ApiVersion, currency: string | null
  }> | null
}

/** The event-to-scope map as the fan-out statement reads it (jsonb: a missing key is an unknown event). */
const EVENT_SCOPES_JSON = JSON.stringify(EVENT_SCOPES)

/**
 * The fan-out of up to `limit` events as one statement (one round trip, atomic without a transaction
 * around it): take the oldest undispatched events that no dispatcher holds (SKIP LOCKED: concurrent
 * dispatchers take disjoint batches; an event whose lease ran out is taken again), find the
 * registrations that want each (subscribed, active, the installation holding the event's scope), and
 * lease the events that have some to this dispatcher, stamping the others dispatched at once. Each
 * delivery carries its business's currency, so that shaping its body for an older API version reads
 * nothing more. An
 * event taken again leaves out the registrations whose delivery was recorded before. Erasures aimed
 * at one installation are left to dispatchErasures.
 */
function fanOutStatement (limit: number, leaseMs: number) {
  return sql<FanOut>`
    with taken as (${outboxDispatch.free(limit)}),
    targets as (
      select t.seq, t.id as event_id, w.id as webhook_id, w.created_at as registered_at, w.installation_id, w.app_id, w.business_id,
        w.url, w.secret_encrypted, a.webhook_url as app_webhook_url,
        case when w.is_app_webhook then a.webhook_signature_scheme else w.signature_scheme end as signature_scheme,
        coalesce(w.api_version, i.api_version) as api_version, b.currency
      from taken t
      join webhooks w on w.business_id = t.business_id and w.is_active and w.events ? t.event
        and (t.installation_id is null or w.installation_id = t.installation_id)
      join installations i on i.id = w.installation_id and i.uninstalled_at is null
      join apps a on a.id = w.app_id
      left join businesses b on b.id = t.business_id
      where ${EVENT_SCOPES_JSON}::jsonb ? t.event
        and (${EVENT_SCOPES_JSON}::jsonb ->> t.event is null or i.granted_scopes ? (${EVENT_SCOPES_JSON}::jsonb ->> t.event))
        and not (t.retaken and exists (select 1 from webhook_deliveries d where d.event_id = t.id and d.webhook_id = w.id))
    ),
    stamped as (${outboxDispatch.leaseOrStamp('taken', sql`select event_id from targets`, leaseMs)})
    select
      (select count(*)::int from taken) as events,
      ${outboxDispatch.erasuresWaiting()} as erasures,
      (select json_object_agg(t.id, json_build_object('event', t.event, 'data', t.data, 'occurredAt', t.created_at, 'traceParent', t.trace_parent,
          'lease', ${outboxDispatch.leaseEnd(leaseMs)}::text))
        from taken t where t.id in (select event_id from targets)) as occurrences,
      (select json_agg(json_build_object('eventId', event_id, 'webhookId', webhook_id, 'installationId', installation_id, 'appId', app_id,
          'businessId', business_id, 'url', url, 'secretEncrypted', secret_encrypted, 'appWebhookUrl', app_webhook_url,
          'signatureScheme', signature_scheme, 'apiVersion', api_version, 'currency', currency)
          order by seq, registered_at)
        from targets) as deliveries`
}

/** The rows come back as JSON: PGlite answers json columns as text where node-postgres parses them. */
const parsed = <T>(value: T | string): T => typeof value === 'string' ? JSON.parse(value) as T : value

/** A delivery's id: the same whenever its event is dispatched to its registration, so a resend after a crash carries it again. */
export const deliveryId = (eventId: string, webhookId: string) => derivedId('dlv', `${eventId}/${webhookId}`)

/**
 * Takes a batch of undispatched outbox events and plans their deliveries, in one statement (see
 * fanOutStatement). Nothing is written for a delivery until its first attempt's outcome: the items
 * come back `fresh` with everything that attempt needs (the event's data serialized once for all its
 * registrations), and the attempt's outcome writes the delivery and its attempt together. If this
 * process dies first, the event's lease runs out and the next dispatch sends what was not recorded,
 * under the same delivery ids.
 */
export async function dispatchBatch (db: Db, leaseMs: number, limit = DISPATCH_BATCH): Promise<{ events: number, items: AttemptItem[] }> {
  const [result] = await namedRows(db, 'webhook_fan_out', fanOutStatement(limit, leaseMs))
  const occurrences = parsed(result.occurrences) ?? {}
  const serialized = new Map<string, { data: Record<string, unknown>, dataJson: string, occurredAt: Date }>()
  const occurrence = (eventId: string) => {
    let known = serialized.get(eventId)
    if (known === undefined) {
      const { data, occurredAt } = occurrences[eventId]
      serialized.set(eventId, known = { data, dataJson: JSON.stringify(data), occurredAt: new Date(occurredAt) })
    }
    return known
  }
  const items: AttemptItem[] = (parsed(result.deliveries) ?? []).map((d) => {
    const { data, dataJson, occurredAt } = occurrence(d.eventId)
    const id = deliveryId(d.eventId, d.webhookId)
    const claimed: Claimed = {
      id, webhookId: d.webhookId, appId: d.appId, installationId: d.installationId, businessId: d.businessId,
      event: occurrences[d.eventId].event, data, dataJson, attempts: 1, cycleAttempts: 1, occurredAt, traceParent: occurrences[d.eventId].traceParent,
      url: d.url, secretEncrypted: d.secretEncrypted, isActive: true, appWebhookUrl: d.appWebhookUrl, signatureScheme: d.signatureScheme,
      apiVersion: d.apiVersion, currency: d.currency
    }
    return { id, claimed, fresh: d.eventId, lease: occurrences[d.eventId].lease }
  })
  if (!result.erasures) return { events: result.events, items }
  const erasures = await dispatchErasures(db, leaseMs, limit)
  return { events: result.events + erasures.events, items: [...items, ...erasures.items] }
}

/**
 * The erasures aimed at one installation (business.data_erasure after an uninstall), which go to the
 * app's webhookUrl through its own registration, created when missing (erasureTarget): in a
 * transaction, the events locked SKIP LOCKED and stamped with their deliveries.
 */
async function dispatchErasures (db: Db, leaseMs: number, limit: number): Promise<{ events: number, items: AttemptItem[] }> {
  return await db.transaction(async (tx) => {
    const events = await takeErasures(tx, limit)
    if (events.length === 0) return { events: 0, items: [] }
    const leaseUntil = databaseNowPlus({ milliseconds: leaseMs })
    const planned: Array<{ row: NewDelivery, target: Target }> = []
    for (const event of events) {
      const target = await erasureTarget(tx, event)
      if (target !== null) planned.push({ row: delivery(event, target, leaseUntil), target })
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
