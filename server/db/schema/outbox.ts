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
  index('outbox_business_event_idx').on(t.businessId, t.event, t.createdAt)
])
