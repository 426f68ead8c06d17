import { pgTable, text, timestamp, jsonb, index, bigserial } from 'drizzle-orm/pg-core'
import { sql } from 'drizzle-orm'

/**
 * Domain events, written in the same transaction as the change that caused them.
 * The dispatcher (webhooks) fans them out and stamps dispatchedAt.
 */
export const outboxEvents = pgTable('outbox_events', {
  seq: bigserial('seq', { mode: 'number' }).primaryKey(),
  id: text('id').notNull().unique(),
  businessId: text('business_id').notNull(),
  event: text('event').notNull(),
  data: jsonb('data').$type<Record<string, unknown>>().notNull(),
  /** For events aimed at one app installation only (business.data_erasure). */
  installationId: text('installation_id'),
  createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  dispatchedAt: timestamp('dispatched_at', { withTimezone: true, mode: 'date' }),
  /**
   * While a dispatcher sends the event's first attempts: no other dispatcher takes the event before
   * then. It is stamped dispatched once every delivery is recorded; a dispatcher that dies leaves the
   * lease to run out, and the next one sends what was not recorded, under the same delivery ids.
   */
  leaseUntil: timestamp('lease_until', { withTimezone: true, mode: 'date' }),
  /** The W3C `traceparent` of the request that wrote it, when tracing is on: its webhook attempts join that trace. */
  traceParent: text('trace_parent')
}, (t) => [
  index('outbox_pending_idx').on(t.seq).where(sql`dispatched_at is null`),
  // the few events aimed at one installation (erasures, charges) waiting: every dispatch asks whether there are any
  index('outbox_erasures_idx').on(t.seq).where(sql`dispatched_at is null and installation_id is not null`)
])
// Each event is updated twice (leased by the dispatch, stamped once its deliveries are recorded). The table
// is stored with room on each page (fillfactor 60, migration 0024) so that the lease, which changes no
// indexed column, is written beside the row without new index entries (a HOT update); and it has no
// index beyond its lookups (by seq, by id, the undispatched ones, the waiting erasures), each of which
// every write pays for (the last only for the erasures themselves).
