import { and, asc, count, eq, gte, sql, type SQL } from 'drizzle-orm'
import { webhookDeliveries } from '../../server/db/schema/index.ts'
import { newId } from '../../server/db/ids.ts'
import { databaseNow, databaseNowPlus } from '../../server/clock.ts'
import { currentTraceParent } from '../../server/telemetry.ts'
import { conflict, fieldError, notFound } from './errors.ts'
import type { CallingInstallation, DeliveryRow, WebhookRow, WebhooksContext } from './context.ts'
import { get } from './app-registrations.ts'

// Sending again: one delivery (redeliver), a registration's log since a time (replay), a test event.

/** Deliveries one replay call queues at most; the answer says how many are left and from when to go on. */
export const MAX_REPLAY = 1000
/** How many matching deliveries past its own 1 000 a replay counts exactly (`remaining`); beyond, `remainingExact` is false. */
export const REPLAY_COUNT_LIMIT = 10_000

/** Restarts deliveries (fresh retry budget, same id) reserved for this process, which attempts them now. */
async function restart ({ executor, delivery }: WebhooksContext, where: SQL, max: number): Promise<number> {
  const lease = databaseNowPlus({ milliseconds: delivery.engine.leaseMs })
  const rows = await executor.update(webhookDeliveries).set({
    status: 'PENDING', cycleAttempts: 0, nextAttemptAt: databaseNow(), lockedUntil: lease, completedAt: null
  }).where(and(where, sql`${webhookDeliveries.id} in (select id from webhook_deliveries where ${where}
      and (status <> 'PENDING' or locked_until is null or locked_until < now()) order by created_at, id limit ${max})`))
    .returning({ id: webhookDeliveries.id, attempts: webhookDeliveries.attempts })
  delivery.queue.push(rows.map((row) => ({ id: row.id, reserved: row.attempts })))
  return rows.length
}

export async function redeliverOn (context: WebhooksContext, webhook: WebhookRow, deliveryId: string) {
  if (!webhook.isActive) throw conflict('webhook_inactive', 'The webhook is inactive; re-enable it first (PATCH isActive true)')
  const where = and(eq(webhookDeliveries.id, deliveryId), eq(webhookDeliveries.webhookId, webhook.id)) as SQL
  const [existing] = await context.executor.select({ id: webhookDeliveries.id }).from(webhookDeliveries).where(where).limit(1)
  if (existing === undefined) throw notFound('delivery_not_found', 'Delivery')
  if (await restart(context, where, 1) === 0) throw conflict('delivery_in_progress', 'The delivery is being attempted right now')
  return { deliveryId, status: 'PENDING' as const }
}

export async function redeliver (context: WebhooksContext, installation: CallingInstallation, id: string, deliveryId: string) {
  return await redeliverOn(context, await get(context.executor, installation, id), deliveryId)
}

/** Deliveries of one registration since a time that a replay may take now (not leased by an attempt). */
function replayable (webhook: WebhookRow, input: { since: string, status?: DeliveryRow['status'] }): SQL {
  const since = new Date(input.since)
  if (Number.isNaN(since.getTime())) throw fieldError('field_format', '/since', 'must be a date-time')
  const filters = [eq(webhookDeliveries.webhookId, webhook.id), gte(webhookDeliveries.createdAt, since)]
  if (input.status !== undefined) filters.push(eq(webhookDeliveries.status, input.status))
  return and(...filters) as SQL
}

/**
 * What a replay would queue now: the matching deliveries no attempt holds, the oldest MAX_REPLAY of
 * them, and where the next call should start. Taken before queueing, since queued deliveries are
 * attempted (and free again) at once. The count stops REPLAY_COUNT_LIMIT rows past the call's own,
 * so a replay (and the console's dry run) reads at most 11 000 rows of the registration's index
 * however long its log is; past that, `remaining` is a lower bound.
 */
async function replayPlan ({ executor }: WebhooksContext, where: SQL) {
  const free = and(where, sql`(${webhookDeliveries.status} <> 'PENDING' or ${webhookDeliveries.lockedUntil} is null or ${webhookDeliveries.lockedUntil} < now())`)
  const counted = MAX_REPLAY + REPLAY_COUNT_LIMIT
  const capped = executor.select({ one: sql`1` }).from(webhookDeliveries).where(free).limit(counted + 1).as('capped')
  const [{ found }] = await executor.select({ found: count() }).from(capped)
  const [next] = found > MAX_REPLAY
    ? await executor.select({ at: webhookDeliveries.createdAt }).from(webhookDeliveries).where(free)
      .orderBy(asc(webhookDeliveries.createdAt), asc(webhookDeliveries.id)).offset(MAX_REPLAY).limit(1)
    : []
  return { matching: Math.min(found, counted), exact: found <= counted, nextSince: next?.at.toISOString() ?? null }
}

/** `dryRun`: what the call would queue, nothing sent (the console's confirmation). */
export async function replayOn (context: WebhooksContext, webhook: WebhookRow, input: { since: string, status?: DeliveryRow['status'] }, options: { dryRun?: boolean } = {}) {
  if (!webhook.isActive) throw conflict('webhook_inactive', 'The webhook is inactive; re-enable it first (PATCH isActive true)')
  const where = replayable(webhook, input)
  const plan = await replayPlan(context, where)
  const queued = options.dryRun === true ? Math.min(plan.matching, MAX_REPLAY) : await restart(context, where, MAX_REPLAY)
  const remaining = Math.max(0, plan.matching - queued)
  return { queued, remaining, remainingExact: plan.exact, nextSince: remaining === 0 ? null : plan.nextSince }
}

export async function replay (context: WebhooksContext, installation: CallingInstallation, id: string, input: { since: string, status?: DeliveryRow['status'] }) {
  return await replayOn(context, await get(context.executor, installation, id), input)
}

/** Sends webhook.test now and answers with the result; logged like any delivery, never retried. */
export async function testOn ({ executor, delivery }: WebhooksContext, webhook: WebhookRow) {
  const deliveryId = newId('dlv')
  await executor.insert(webhookDeliveries).values({
    id: deliveryId, webhookId: webhook.id, installationId: webhook.installationId, appId: webhook.appId, businessId: webhook.businessId,
    eventId: null, event: 'webhook.test', data: { webhookId: webhook.id, message: 'This is a test delivery from the platform.' },
    nextAttemptAt: databaseNow(), lockedUntil: databaseNowPlus({ milliseconds: delivery.engine.leaseMs }),
    traceParent: currentTraceParent()
  })
  const result = await delivery.engine.attempt({ id: deliveryId, reserved: 0 }, { retry: false })
  if (result === null) throw conflict('test_delivery_failed', 'The test delivery could not be sent')
  return { success: result.success, statusCode: result.statusCode, durationMs: result.durationMs, ...(result.error !== null ? { error: result.error } : {}) }
}

export async function test (context: WebhooksContext, installation: CallingInstallation, id: string) {
  return await testOn(context, await get(context.executor, installation, id))
}
