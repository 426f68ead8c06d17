import { outboxEvents } from './db/schema/index.ts'
import type { Executor } from './db/client.ts'
import { newId } from './db/ids.ts'
import { asc, inArray, isNull, sql } from 'drizzle-orm'

/** Scopes of the platform (DESIGN §7). */
export const SCOPES = ['read_products', 'write_products', 'read_orders', 'write_orders', 'read_reviews', 'read_analytics',
  'read_business', 'read_pages', 'write_payments', 'write_shipping', 'write_discounts'] as const
export type Scope = typeof SCOPES[number]

/** Every webhook event and the scope an app needs to receive it (null: no scope needed). */
export const EVENT_SCOPES = {
  'order.created': 'read_orders',
  'order.status_changed': 'read_orders',
  'order.delivered': 'read_orders',
  'order.cancelled': 'read_orders',
  'payment.completed': 'read_orders',
  'payment.expired': 'read_orders',
  'product.created': 'read_products',
  'product.updated': 'read_products',
  'product.deleted': 'read_products',
  'product.out_of_stock': 'read_products',
  'product.low_stock': 'read_products',
  'product.back_in_stock': 'read_products',
  'review.created': 'read_reviews',
  'review.deleted': 'read_reviews',
  'business.data_erasure': null,
  'webhook.test': null
} as const satisfies Record<string, Scope | null>
export type EventName = keyof typeof EVENT_SCOPES
export const EVENT_NAMES = Object.keys(EVENT_SCOPES) as EventName[]

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
  await executor.insert(outboxEvents).values({ id, businessId: input.businessId, event: input.event, data: input.data, installationId: input.installationId ?? null })
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
