import { outboxEvents } from './db/schema/index.ts'
import type { Executor } from './db/client.ts'
import { newId } from './db/ids.ts'
import { asc, inArray, isNull, sql } from 'drizzle-orm'
import type { EventName } from '../sdk/src/contract/index.ts'

/** Scopes and events are the contract's (sdk/src/contract); re-exported for the server's modules. */
export { SCOPES, EVENT_SCOPES, EVENT_NAMES, type Scope, type EventName } from '../sdk/src/contract/index.ts'

/** Channel that wakes the dispatcher in every process when an event commits. */
export const OUTBOX_CHANNEL = 'outbox_events'

export interface NewEvent {
  businessId: string
  event: EventName
  data: Record<string, unknown>
  /** Only for events aimed at one installation (business.data_erasure). */
  installationId?: string
}

/**
 * Writes a domain event to the outbox inside the caller's transaction: it commits with the change
 * or not at all. The NOTIFY is transactional too, so dispatchers wake only after the commit.
 */
export async function emitEvent (executor: Executor, input: NewEvent): Promise<string> {
  const id = newId('evt')
  await executor.insert(outboxEvents).values({
    id, businessId: input.businessId, event: input.event, data: input.data,
    installationId: input.installationId ?? null
  })
  await executor.execute(sql`select pg_notify(${OUTBOX_CHANNEL}, ${input.businessId})`)
  return id
}

export type OutboxRow = typeof outboxEvents.$inferSelect

/**
 * The oldest undispatched events, locked for the caller's transaction; SKIP LOCKED lets concurrent
 * dispatchers take disjoint batches.
 */
export async function takeUndispatched (tx: Executor, limit: number): Promise<OutboxRow[]> {
  return await tx.select().from(outboxEvents).where(isNull(outboxEvents.dispatchedAt))
    .orderBy(asc(outboxEvents.seq)).limit(limit).for('update', { skipLocked: true })
}

/** Stamps the events dispatched, in the transaction that wrote their deliveries. */
export async function markDispatched (tx: Executor, events: OutboxRow[]): Promise<void> {
  await tx.update(outboxEvents).set({ dispatchedAt: new Date() }).where(inArray(outboxEvents.seq, events.map((e) => e.seq)))
}
