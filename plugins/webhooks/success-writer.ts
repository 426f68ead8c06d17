import { sql } from 'drizzle-orm'
import type { Db } from '../../server/db/client.ts'
import { newId } from '../../server/db/ids.ts'
import { outboxDispatch } from '../../server/events.ts'
import { attemptOutcome, type AttemptOutcome, type Claimed } from './delivery-types.ts'
import type { SendResult } from './sender.ts'

/** Successes waiting for their group write at most before attempts wait for theirs (memory bound when the database lags). */
export const MAX_UNWRITTEN = 4096

/** The event tracker's: a fresh delivery is no longer in flight, its outcome written (`recorded`) or not. */
type Settle = (item: { id: string, fresh: string }, recorded: boolean) => void

interface Success {
  claimed: Claimed, result: SendResult, headers: Record<string, string>, counts: boolean, fresh: string | undefined
  resolve: () => void, reject: (error: unknown) => void
}

/**
 * One statement records a group of successes: a fresh delivery inserted as it ended, SUCCEEDED (its event
 * copied from the outbox); one attempted before updated; their attempt rows; and the events whose
 * deliveries are all recorded stamped dispatched.
 */
async function writeSuccesses (db: Db, batch: Success[], events: string[]): Promise<void> {
  const rows = batch.map((s) => ({
    attempt_id: newId('att'), delivery_id: s.claimed.id, attempt: s.claimed.attempts, status_code: s.result.statusCode,
    duration_ms: s.result.durationMs, snippet: s.result.responseSnippet, headers: s.headers, counts: s.counts, fresh: s.fresh ?? null,
    webhook_id: s.claimed.webhookId, installation_id: s.claimed.installationId, app_id: s.claimed.appId, business_id: s.claimed.businessId,
    relayed: s.result.relayed === true
  }))
  // jsonb parameters: both drivers pass them the same way, whatever the batch size
  await db.execute(sql`
    with v as (
      select * from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as v(attempt_id text, delivery_id text, attempt int, status_code int,
        duration_ms int, snippet text, headers jsonb, counts boolean, fresh text, webhook_id text, installation_id text, app_id text, business_id text,
        relayed boolean)
    ),
    inserted as (
      insert into webhook_deliveries (id, webhook_id, installation_id, app_id, business_id, event_id, event, data, occurred_at,
        status, attempts, cycle_attempts, last_status_code, last_duration_ms, completed_at, trace_parent)
      select v.delivery_id, v.webhook_id, v.installation_id, v.app_id, v.business_id, e.id, e.event, e.data, e.created_at,
        'SUCCEEDED', 1, 1, v.status_code, v.duration_ms, now(), e.trace_parent
      from v join outbox_events e on e.id = v.fresh
      on conflict do nothing
      returning webhook_id
    ),
    a as (
      insert into webhook_attempts (id, delivery_id, attempt, status_code, duration_ms, response_snippet, request_headers, relayed)
      select attempt_id, delivery_id, attempt, status_code, duration_ms, snippet, headers, relayed from v
    ),
    updated as (
      update webhook_deliveries d set status = 'SUCCEEDED', last_status_code = v.status_code, last_error = null,
        last_duration_ms = v.duration_ms, locked_until = null, next_attempt_at = null, completed_at = now()
      from v where v.fresh is null and d.id = v.delivery_id and d.attempts = v.attempt returning d.webhook_id, v.counts
    ),
    stamped as (${outboxDispatch.stamp(events)})
    update webhooks set consecutive_failures = 0
    where id in (select webhook_id from updated where counts union select webhook_id from inserted) and consecutive_failures <> 0`)
}

/**
 * Successes are written in groups: while one statement runs, the next ones gather, so under load one
 * round trip records many deliveries with their attempt rows, and stamps the events whose deliveries
 * are all recorded (`eventRecorded`). `settle` tells the engine's event tracker whether a fresh delivery's
 * outcome was written.
 */
export function createSuccessWriter (db: Db, settle: Settle, onAttempt: (outcome: AttemptOutcome) => void) {
  let pending: Success[] = []
  let finished: string[] = []
  let flushing = false
  let flushed: Promise<void> = Promise.resolve()
  let unwritten = 0

  async function flush (): Promise<void> {
    while (pending.length > 0 || finished.length > 0) {
      const batch = pending
      const events = finished
      pending = []
      finished = []
      try {
        await writeSuccesses(db, batch, events)
      } catch (error) {
        for (const s of batch) {
          if (s.fresh !== undefined) settle({ id: s.claimed.id, fresh: s.fresh }, false)
          s.reject(error)
        }
        continue
      }
      for (const s of batch) {
        if (s.fresh !== undefined) settle({ id: s.claimed.id, fresh: s.fresh }, true)
        onAttempt(attemptOutcome(s.claimed, s.result, 'SUCCEEDED', s.counts))
        s.resolve()
      }
    }
    flushing = false
  }

  /**
   * The next group goes after the answers that have already arrived (I/O runs before setImmediate):
   * PGlite answers a statement without yielding, so without this pause every group would be of one.
   */
  function schedule (): void {
    if (flushing) return
    flushing = true
    flushed = new Promise((resolve) => setImmediate(() => { flush().catch(() => {}).finally(resolve) }))
  }

  /** An event whose deliveries are all recorded: stamped dispatched by the next group write. */
  function eventRecorded (eventId: string): void {
    finished.push(eventId)
    schedule()
  }

  /** Resolves once every outcome given so far is written and the events they finished are stamped (on close). */
  async function drain (): Promise<void> {
    // eslint-disable-next-line no-unmodified-loop-condition -- flush() clears it while this loop awaits
    while (flushing) await flushed
  }

  async function succeeded (claimed: Claimed, result: SendResult, headers: Record<string, string>, counts: boolean, fresh: string | undefined): Promise<void> {
    unwritten++
    try {
      await new Promise<void>((resolve, reject) => {
        pending.push({ claimed, result, headers, counts, fresh, resolve, reject })
        schedule()
      })
    } finally {
      unwritten--
    }
  }

  /** Whether a success may be left to its group write (fewer than MAX_UNWRITTEN are waiting). */
  const mayWriteLater = (): boolean => unwritten <= MAX_UNWRITTEN

  return { succeeded, eventRecorded, drain, mayWriteLater }
}
