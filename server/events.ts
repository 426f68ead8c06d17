import { outboxEvents } from './db/schema/index.ts'
import type { Db, Executor, Tx } from './db/client.ts'
import { afterCommit, commitsAt } from './db/after-commit.ts'
import { newId } from './db/ids.ts'
import { and, asc, inArray, isNotNull, isNull, sql, type SQL } from 'drizzle-orm'
import { deleteInBatches, namedRows } from './db/rows.ts'
import type { EventName } from '../sdk/src/contract/index.ts'
import { currentTraceParent } from './telemetry.ts'
import { databaseNow, databaseNowPlus, type DatabaseTime } from './clock.ts'

/** Scopes and events are the contract's (sdk/src/contract); re-exported for the server's modules. */
export { SCOPES, EVENT_SCOPES, EVENT_NAMES, type Scope, type EventName } from '../sdk/src/contract/index.ts'

/** Channel that wakes the dispatcher in every process when an event commits. */
export const OUTBOX_CHANNEL = 'outbox_events'

export interface NewEvent {
  businessId: string
  event: EventName
  data: Record<string, unknown>
  /** Only for events aimed at one installation (INSTALLATION_EVENTS: the erasure, the app's charges). */
  installationId?: string
}

/**
 * Writes a domain event to the outbox inside the caller's transaction: it commits with the change
 * or not at all. Dispatchers are woken once it has committed (wakeDispatchers), not by a NOTIFY in
 * the transaction: PostgreSQL takes one lock across every notifying transaction's commit, so a
 * NOTIFY per event made the writers' commits queue one behind the other (a fourth of the insert rate
 * of 16 writers, measured: docs/benchmarks.md). A transaction begun where its commit cannot be seen
 * (server/db/after-commit.ts) still notifies from inside, as before.
 */
export async function emitEvent (executor: Executor, input: NewEvent): Promise<string> {
  const id = newId('evt')
  const insert = sql`insert into outbox_events (id, business_id, event, data, installation_id, trace_parent)
    values (${id}, ${input.businessId}, ${input.event}, ${JSON.stringify(input.data)}::jsonb, ${input.installationId ?? null}, ${currentTraceParent()})`
  const commits = commitsAt(executor)
  if (commits === 'unknown') {
    // the row and the wake-up in one round trip
    await executor.execute(sql`with written as (${insert} returning business_id) select pg_notify(${OUTBOX_CHANNEL}, business_id) from written`)
    return id
  }
  await namedRows(executor, 'outbox_insert', insert)
  if (commits === 'statement') wakeDispatchers(executor as Db)
  else afterCommit(executor, OUTBOX_CHANNEL, wakeDispatchers)
  return id
}

/**
 * NOTIFYs the outbox channel after commits, one at a time per database: a commit that ends while one
 * is on its way asks for another after it (that one could have reached a dispatcher before the commit),
 * so every committed event is followed by a wake-up sent after it, and a burst of commits costs a few.
 * A wake-up that fails (the database closing) is left to the dispatchers' sweep, which finds every
 * event not dispatched.
 */
const waking = new WeakMap<Db, { sending: boolean, again: boolean }>()
export function wakeDispatchers (db: Db): void {
  let state = waking.get(db)
  if (state === undefined) waking.set(db, state = { sending: false, again: false })
  if (state.sending) {
    state.again = true
    return
  }
  state.sending = true
  const wake = state
  void (async () => {
    try {
      do {
        wake.again = false
        await db.execute(sql`select pg_notify(${OUTBOX_CHANNEL}, '')`)
      } while (wake.again)
    } catch {
      // the sweep finds the events (see above)
    } finally {
      wake.sending = false
    }
  })()
}

export type OutboxRow = typeof outboxEvents.$inferSelect

/**
 * The outbox's part of the webhook dispatcher's one-statement fan-out (plugins/webhooks/dispatcher.ts),
 * kept here with the table: which events a dispatch may take, how it leases or stamps them, and the
 * stamp that follows their deliveries' records.
 */
export const outboxDispatch = {
  /**
   * The oldest events free to dispatch (never leased, or their lease ran out: `retaken`), locked SKIP
   * LOCKED so that concurrent dispatchers take disjoint batches; events aimed at one installation
   * (INSTALLATION_EVENTS) are left to takeErasures.
   */
  free: (limit: number): SQL => sql`select seq, id, business_id, installation_id, event, data, created_at, trace_parent, lease_until is not null as retaken
    from outbox_events
    where dispatched_at is null and (lease_until is null or lease_until < now()) and installation_id is null
    order by seq limit ${limit} for update skip locked`,
  /**
   * Of the events in CTE `taken`, leases those in `leased` (a query of event ids) for leaseMs and stamps
   * the others dispatched. They are found by their seqs as an array (`= any`), one index probe each: a
   * join with `taken` let the planner hash the whole table instead, a cost that grew with the outbox.
   */
  leaseOrStamp: (taken: string, leased: SQL, leaseMs: number): SQL => sql`update outbox_events o set
      lease_until = case when o.id in (${leased}) then ${outboxDispatch.leaseEnd(leaseMs)} end,
      dispatched_at = case when o.id in (${leased}) then null else now() end
    where o.seq = any(array(select seq from ${sql.raw(taken)}))`,
  /** The end of a lease leaseOrStamp takes: the same value anywhere in its statement (now() is the transaction's start). */
  leaseEnd: (leaseMs: number): DatabaseTime => databaseNowPlus({ milliseconds: leaseMs }),
  /**
   * Stamps dispatched the events (`closing`: ids with the lease their dispatch set, as text) still under
   * that lease, in the statement that records their last deliveries; answers the ids stamped. An event
   * taken again since (its lease renewed, here or by another process) is left to `stamp`. A leased event
   * is undispatched (a lease and the dispatched stamp are never set together), so the statement does not
   * say `dispatched_at is null`: said, it let the planner read every undispatched event (the partial
   * index) to find these few, a cost that grew with a backlog; unsaid, each is found by its id.
   */
  stampClosing: (closing: Array<{ id: string, lease: string }>): SQL => sql`update outbox_events o set dispatched_at = now(), lease_until = null
    from jsonb_to_recordset(${JSON.stringify(closing)}::jsonb) as c(id text, lease timestamptz)
    where o.id = c.id and o.lease_until = c.lease returning o.id`,
  /** Whether events aimed at one installation wait for takeErasures. */
  erasuresWaiting: (): SQL => sql`exists (select 1 from outbox_events where dispatched_at is null and installation_id is not null)`,
  /** Stamps dispatched the events (ids) whose deliveries are all recorded, in a statement after the last record. */
  stamp: (ids: string[]): SQL => sql`update outbox_events set dispatched_at = now(), lease_until = null
    where id in (select jsonb_array_elements_text(${JSON.stringify(ids)}::jsonb)) and dispatched_at is null`
}

/** Events aimed at one installation (the erasure, the app's charges) waiting for dispatch, locked for the caller's transaction (SKIP LOCKED). */
export async function takeErasures (tx: Tx, limit: number): Promise<OutboxRow[]> {
  return await tx.select().from(outboxEvents)
    .where(and(isNull(outboxEvents.dispatchedAt), isNotNull(outboxEvents.installationId)))
    .orderBy(asc(outboxEvents.seq)).limit(limit).for('update', { skipLocked: true })
}

/** Stamps the events dispatched, in the transaction that wrote their deliveries. */
export async function markDispatched (tx: Tx, events: OutboxRow[]): Promise<void> {
  await tx.update(outboxEvents).set({ dispatchedAt: databaseNow(), leaseUntil: null }).where(inArray(outboxEvents.seq, events.map((e) => e.seq)))
}

/** Deletes the events dispatched before `before` (the delivery log's retention): each delivery keeps its own copy of the data. */
export async function pruneDispatched (executor: Executor, before: DatabaseTime): Promise<number> {
  return await deleteInBatches(executor, 'outbox_events', 'seq', sql`dispatched_at < ${before}`)
}
