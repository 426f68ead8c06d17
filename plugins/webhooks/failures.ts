import { sql } from 'drizzle-orm'
import { rows } from '../../server/db/rows.ts'
import { txExecutor, type Tx } from '../../server/db/client.ts'
import { newId } from '../../server/db/ids.ts'
import { databaseNowPlus } from '../../server/clock.ts'
import type { AttemptOutcome, Claimed, DeliveryDeps } from './delivery-types.ts'
import type { SendResult } from './sender.ts'

/** pg-boss queue of retries: each job asks for one due attempt of one delivery. */
export const DELIVER_JOB = 'webhooks.deliver'

type FailureDeps = Pick<DeliveryDeps, 'db' | 'jobs' | 'retryScheduleSeconds' | 'disableAfterFailures' | 'onDisabled'>

/** The fresh delivery's row, as its first attempt left it (its event copied from the outbox). */
const freshDelivery = (claimed: Claimed, eventId: string, leaseMs: number) => sql`insert into webhook_deliveries (id, webhook_id, installation_id, app_id, business_id,
    event_id, event, data, occurred_at, attempts, cycle_attempts, next_attempt_at, locked_until, trace_parent)
  select ${claimed.id}, ${claimed.webhookId}, ${claimed.installationId}, ${claimed.appId}, ${claimed.businessId}, e.id, e.event, e.data, e.created_at,
    1, 1, now(), ${databaseNowPlus({ milliseconds: leaseMs })}, e.trace_parent
  from outbox_events e where e.id = ${eventId}
  on conflict do nothing`

function logAttempt (claimed: Claimed, result: SendResult, headers: Record<string, string> | null, retryDelaySeconds: number | undefined) {
  const nextRetry = retryDelaySeconds === undefined ? sql`null` : databaseNowPlus({ seconds: retryDelaySeconds })
  return sql`insert into webhook_attempts (id, delivery_id, attempt, status_code, duration_ms, error, response_snippet, request_headers, next_retry_at, relayed)
    values (${newId('att')}, ${claimed.id}, ${claimed.attempts}, ${result.statusCode}, ${result.durationMs}, ${result.error}, ${result.responseSnippet},
      ${headers === null ? null : JSON.stringify(headers)}::jsonb, ${nextRetry}, ${result.relayed === true})`
}

/** Another attempt after `delay` seconds of the database's time: the delivery waits, its pg-boss job is queued in the same transaction. */
async function scheduleRetry (deps: FailureDeps, tx: Tx, claimed: Claimed, result: SendResult, delay: number): Promise<'PENDING' | null> {
  const updated = await rows(tx, sql<{ id: string }>`update webhook_deliveries set last_status_code = ${result.statusCode}, last_error = ${result.error},
    last_duration_ms = ${result.durationMs}, locked_until = null, next_attempt_at = ${databaseNowPlus({ seconds: delay })}
    where id = ${claimed.id} and attempts = ${claimed.attempts} returning id`)
  if (updated.length === 0) return null
  await deps.jobs.ensureQueue(DELIVER_JOB)
  await deps.jobs.boss.send(DELIVER_JOB, { deliveryId: claimed.id }, { startAfter: delay, retryLimit: 3, retryDelay: 5, db: txExecutor(tx) })
  return 'PENDING'
}

/** The delivery ends FAILED; counted (`retry`), it adds to the registration's consecutive failures, which switch it off at the limit. */
async function endFailed (deps: FailureDeps, tx: Tx, claimed: Claimed, result: SendResult, retry: boolean): Promise<'FAILED' | null> {
  const updated = await rows(tx, sql<{ id: string }>`update webhook_deliveries set status = 'FAILED', last_status_code = ${result.statusCode},
    last_error = ${result.error}, last_duration_ms = ${result.durationMs}, locked_until = null, next_attempt_at = null, completed_at = now()
    where id = ${claimed.id} and attempts = ${claimed.attempts} returning id`)
  if (updated.length === 0) return null
  if (!retry) return 'FAILED'
  // consecutive failed deliveries (not attempts) switch the registration off
  const reason = `Disabled after ${deps.disableAfterFailures} consecutive failed deliveries; the last one: ${result.error ?? 'no answer'}`
  const [webhook] = (await rows(tx, sql<{ is_active: boolean, consecutive_failures: number }>`update webhooks set consecutive_failures = consecutive_failures + 1,
      is_active = case when consecutive_failures + 1 >= ${deps.disableAfterFailures}::int and is_active then false else is_active end,
      disabled_reason = case when consecutive_failures + 1 >= ${deps.disableAfterFailures}::int and is_active then ${reason} else disabled_reason end,
      updated_at = now()
    where id = ${claimed.webhookId} returning is_active, consecutive_failures`))
  if (webhook !== undefined && webhook.is_active === false && Number(webhook.consecutive_failures) === deps.disableAfterFailures) {
    deps.onDisabled(claimed.webhookId, reason)
  }
  return 'FAILED'
}

/**
 * Records a failed attempt in one transaction (a fresh delivery's row first): a retry by the schedule
 * while its cycle has one left, else the end. Answers the delivery's status, or null when another
 * attempt took the delivery meanwhile (nothing recorded).
 */
export async function recordFailure (deps: FailureDeps, leaseMs: number, claimed: Claimed, result: SendResult, headers: Record<string, string> | null,
  retry: boolean, fresh?: string): Promise<AttemptOutcome['status'] | null> {
  const delay = retry ? deps.retryScheduleSeconds[claimed.cycleAttempts - 1] : undefined
  return await deps.db.transaction(async (tx): Promise<AttemptOutcome['status'] | null> => {
    if (fresh !== undefined) await tx.execute(freshDelivery(claimed, fresh, leaseMs))
    await tx.execute(logAttempt(claimed, result, headers, delay))
    return delay !== undefined ? await scheduleRetry(deps, tx, claimed, result, delay) : await endFailed(deps, tx, claimed, result, retry)
  })
}

/** The registration went away or was switched off: the delivery ends without a request. */
export async function abandon (db: DeliveryDeps['db'], claimed: Claimed, reason: string): Promise<void> {
  await db.execute(sql`update webhook_deliveries set status = 'FAILED', attempts = attempts - 1, cycle_attempts = cycle_attempts - 1,
    last_error = ${reason}, locked_until = null, next_attempt_at = null, completed_at = now()
    where id = ${claimed.id} and attempts = ${claimed.attempts}`)
}
