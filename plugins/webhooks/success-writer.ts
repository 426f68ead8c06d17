import { sql } from 'drizzle-orm'
import { namedRows } from '../../server/db/rows.ts'
import type { Db } from '../../server/db/client.ts'
import { newId } from '../../server/db/ids.ts'
import { outboxDispatch } from '../../server/events.ts'
import { attemptOutcome, type AttemptOutcome, type Claimed } from './delivery-types.ts'
import type { Closing, EventTracker } from './event-tracker.ts'
import type { SendResult } from './sender.ts'

/** Successes waiting for their group write at most before attempts wait for theirs (memory bound when the database lags). */
export const MAX_UNWRITTEN = 4096

/** What the writer asks of the engine's event tracker: which events a group closes, and each fresh delivery settled. */
type Tracker = Pick<EventTracker, 'closing' | 'settle'>

interface Success {
  claimed: Claimed, result: SendResult, headers: Record<string, string>, counts: boolean, fresh: string | undefined
  resolve: () => void, reject: (error: unknown) => void
}

/**
 * One statement records a group of successes: a fresh delivery inserted as it ended, SUCCEEDED (its event
 * copied from the outbox); one attempted before updated; their attempt rows; the events whose deliveries
 * were all recorded before stamped dispatched (`events`), and those whose last deliveries are in the
 * group (`closing`) too, if their lease is still the one they were dispatched under. Answers the ids of
 * the closing events it stamped.
 */
async function writeSuccesses (db: Db, batch: Success[], events: string[], closing: Closing[]): Promise<Set<string>> {
  const values = batch.map((s) => ({
    attempt_id: newId('att'), delivery_id: s.claimed.id, attempt: s.claimed.attempts, status_code: s.result.statusCode,
    duration_ms: s.result.durationMs, snippet: s.result.responseSnippet, headers: s.headers, counts: s.counts, fresh: s.fresh ?? null,
    webhook_id: s.claimed.webhookId, installation_id: s.claimed.installationId, app_id: s.claimed.appId, business_id: s.claimed.businessId,
    relayed: s.result.relayed === true
  }))
  // jsonb parameters: both drivers pass them the same way, whatever the batch size
  const [written] = await namedRows(db, 'webhook_successes', sql<{ closed: string[] | string | null }>`
    with v as (
      select * from jsonb_to_recordset(${JSON.stringify(values)}::jsonb) as v(attempt_id text, delivery_id text, attempt int, status_code int,
        duration_ms int, snippet text, headers jsonb, counts boolean, fresh text, webhook_id text, installation_id text, app_id text, business_id text,
        relayed boolean)
    ),
    inserted as (
      insert into webhook_deliveries (id, webhook_id, installation_id, app_id, business_id, event_id, event, data, occurred_at,
        status, attempts, cycle_attempts, last_status_code, last_duration_ms, completed_at, trace_parent)
      select v.delivery_id, v.webhook_id, v.installation_id, v.app_id, v.business_id, e.id, e.event, e.data, e.created_at,
        'SUCCEEDED', 1, 1, v.status_code, v.duration_ms, now(), e.trace_parent
      from v cross join lateral (select id, event, data, created_at, trace_parent from outbox_events where id = v.fresh limit 1) e
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
    stamped as (${outboxDispatch.stamp(events)}),
    closed as (${outboxDispatch.stampClosing(closing)}),
    reset as (
      update webhooks set consecutive_failures = 0
      where id in (select webhook_id from updated where counts union select webhook_id from inserted) and consecutive_failures <> 0
    )
    select (select json_agg(id) from closed) as closed`)
  // PGlite answers json as text where node-postgres parses it
  const closed = typeof written.closed === 'string' ? JSON.parse(written.closed) as string[] : written.closed
  return new Set(closed ?? [])
}

/**
 * Successes are written in groups: while one statement runs, the next ones gather, so under load one
 * round trip records many deliveries with their attempt rows, and stamps the events whose deliveries
 * are all recorded (`eventRecorded`) or whose last deliveries it records (the tracker's `closing`). It
 * tells the engine's event tracker whether each fresh delivery's outcome was written, and its event stamped with it.
 */
export function createSuccessWriter (db: Db, tracker: Tracker, onAttempt: (outcome: AttemptOutcome) => void) {
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
      const fresh = batch.flatMap((s) => s.fresh === undefined ? [] : [{ id: s.claimed.id, fresh: s.fresh }])
      let stamped: Set<string>
      try {
        stamped = await writeSuccesses(db, batch, events, tracker.closing(fresh))
      } catch (error) {
        for (const s of batch) {
          if (s.fresh !== undefined) tracker.settle({ id: s.claimed.id, fresh: s.fresh }, false)
          s.reject(error)
        }
        continue
      }
      for (const s of batch) {
        if (s.fresh !== undefined) tracker.settle({ id: s.claimed.id, fresh: s.fresh }, true, stamped.has(s.fresh))
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
