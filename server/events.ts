import { outboxEvents } from './db/schema/index.ts'
import type { Executor } from './db/client.ts'
import { newId } from './db/ids.ts'
import { sql } from 'drizzle-orm'
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
  // the row and the wake-up in one round trip
  await executor.execute(sql`with written as (
      insert into outbox_events (id, business_id, event, data, installation_id)
      values (${id}, ${input.businessId}, ${input.event}, ${JSON.stringify(input.data)}::jsonb, ${input.installationId ?? null})
      returning business_id
    )
    select pg_notify(${OUTBOX_CHANNEL}, business_id) from written`)
  return id
}

export type OutboxRow = typeof outboxEvents.$inferSelect
