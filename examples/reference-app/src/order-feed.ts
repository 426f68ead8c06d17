import type { Context } from './context.ts'
import { minorUnits } from './checkout-rules.ts'
import type { FeedOrder, Installation, OrderFeed } from './store.ts'

/*
 * The admin page's "Recent orders": a copy of the store's latest orders kept in our store and brought
 * up to date on each refresh with the App API's incremental sync (DESIGN §25). We remember the
 * updatedAt of the last order we read and ask only for the orders changed since (`updatedSince`), so a
 * refresh costs one request when little changed, however many orders the store has.
 */

/** Orders the feed keeps and shows: the most recently updated. */
export const FEED_SIZE = 20
/** The first refresh reads the orders changed in the last 30 days, not the store's whole history. */
export const FEED_START_DAYS = 30
/** The largest page the orders list gives. */
const PAGE_SIZE = 50

const summary = (order: { id: string, orderNumber: string, status: string, amount: unknown, currency: string, updatedAt: string }): FeedOrder => ({
  id: order.id, orderNumber: order.orderNumber, status: order.status, amount: minorUnits(order.amount), currency: order.currency, updatedAt: order.updatedAt
})

/** Newest change first; an order read again replaces the copy we had. */
function merge (kept: FeedOrder[], changed: FeedOrder[]): FeedOrder[] {
  const byId = new Map(kept.map((order) => [order.id, order]))
  for (const order of changed) byId.set(order.id, order)
  return [...byId.values()].sort((a, b) => b.updatedAt.localeCompare(a.updatedAt) || b.id.localeCompare(a.id)).slice(0, FEED_SIZE)
}

/**
 * Reads the orders changed since the last refresh and keeps the feed. updatedSince is inclusive, so the
 * last order of the previous refresh comes again (replacing itself). What was read is kept even when a
 * later page fails (a 429, say): the next refresh goes on from there.
 */
export async function refreshOrderFeed (context: Context, installation: Installation): Promise<OrderFeed & { read: number }> {
  const kept = context.store.orderFeed(installation.businessId)
  const updatedSince = kept.lastUpdatedAt ?? new Date(context.now().getTime() - FEED_START_DAYS * 86_400_000).toISOString()
  const changes = context.api(installation).sync('orders', { updatedSince, limit: PAGE_SIZE })
  const read: FeedOrder[] = []
  try {
    for await (const order of changes) read.push(summary(order))
  } finally {
    context.store.saveOrderFeed(installation.businessId, {
      lastUpdatedAt: changes.lastUpdatedAt ?? kept.lastUpdatedAt,
      orders: merge(kept.orders, read)
    })
  }
  return { ...context.store.orderFeed(installation.businessId), read: read.length }
}
