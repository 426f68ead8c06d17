import { and, eq, sql } from 'drizzle-orm'
import { orders, products, ORDER_STATUSES, type OrderItem, type OrderStatus } from '../../server/db/schema/index.ts'
import type { Executor } from '../../server/db/client.ts'
import { emitEvent } from '../../server/events.ts'
import { recordActivity } from '../../server/activity.ts'
import { badRequest, conflict, notFound } from './errors.ts'
import { pageWindow } from '../../server/schemas.ts'
import { emitStockEvents } from './inventory.ts'
import { catalogChanged } from './catalog-cache.ts'
import { ORDER_PAGE_LIMITS, ORDER_TRANSITIONS, type Order } from './schemas.ts'
import { orderEventData, serializeOrder, type OrderRow } from './serializers.ts'
import { businessPage, countRows, listCountTotal, preparedOnce } from '../../server/db/rows.ts'
import { databaseNow } from '../../server/clock.ts'
import { syncPage, type SyncQuery } from './sync.ts'

// the only legal moves are the contract's (the admin's status buttons offer the same)
export { ORDER_TRANSITIONS }

export function isOrderStatus (value: string): value is OrderStatus {
  return (ORDER_STATUSES as readonly string[]).includes(value)
}

/** The order list's total, kept by the database per business and status (list_counts). */
const ORDER_TOTAL = listCountTotal('orders', 'status')

export interface OrderListQuery { page?: number, limit?: number, status?: OrderStatus, number?: string }

export async function listOrders (executor: Executor, businessId: string, query: OrderListQuery = {}) {
  const { page, limit, offset } = pageWindow(query, ORDER_PAGE_LIMITS)
  const number = query.number?.trim().replace(/^#/, '') ?? ''
  if (number !== '') {
    // order numbers are unique per business: a search by number finds one order or none
    const byStatus = query.status === undefined ? [] : [eq(orders.status, query.status)]
    const where = and(eq(orders.businessId, businessId), eq(orders.orderNumber, number), ...byStatus)
    const found = offset === 0 ? await executor.select().from(orders).where(where).limit(1) : []
    return { data: found.map((row) => serializeOrder(row)), total: offset === 0 ? found.length : await countRows(executor, orders, where), page, limit }
  }
  const { rows, total } = await businessPage(executor, orders, 'orders_page', businessId, { limit, offset },
    query.status === undefined ? undefined : { name: 'status', column: orders.status, value: query.status }, ORDER_TOTAL)
  return { data: rows.map((row) => serializeOrder(row)), total, page, limit }
}

/** The business's orders changed since a time, oldest change first (cursor mode, DESIGN §25), optionally of one status. */
export async function syncOrders (executor: Executor, businessId: string, query: SyncQuery & { status?: OrderStatus }, settleSeconds: number) {
  const { rows, limit, nextCursor } = await syncPage(executor, orders, businessId, query, ORDER_PAGE_LIMITS, settleSeconds,
    { name: 'status', column: orders.status, value: query.status })
  return { data: rows.map((row) => serializeOrder(row)), limit, nextCursor }
}

const orderById = (executor: Executor) => preparedOnce(executor, 'order_by_id', (name) => executor.select().from(orders)
  .where(and(eq(orders.businessId, sql.placeholder('businessId')), eq(orders.id, sql.placeholder('id')))).limit(1).prepare(name))

/** The order row of this business, optionally locked (select … for update) for the caller's transaction. */
export async function findOrderRow (executor: Executor, businessId: string, id: string, lock = false): Promise<OrderRow> {
  const [row] = lock
    ? await executor.select().from(orders).where(and(eq(orders.businessId, businessId), eq(orders.id, id))).limit(1).for('update')
    : await orderById(executor).execute({ businessId, id })
  if (row === undefined) throw notFound('order_not_found', 'Order')
  return row
}

export async function getOrder (executor: Executor, businessId: string, id: string): Promise<Order> {
  return serializeOrder(await findOrderRow(executor, businessId, id))
}

/** Puts the items of a cancelled order back on the shelf (products deleted since are skipped). */
async function restock (executor: Executor, businessId: string, items: OrderItem[]): Promise<void> {
  const sorted = [...items].sort((a, b) => a.productId.localeCompare(b.productId))
  for (const item of sorted) {
    const [row] = await executor.update(products)
      .set({ stock: sql`${products.stock} + ${item.quantity}`, updatedAt: databaseNow() })
      .where(and(eq(products.businessId, businessId), eq(products.id, item.productId)))
      .returning({ id: products.id, name: products.name, stock: products.stock, threshold: products.lowStockThreshold })
    if (row !== undefined) {
      await emitStockEvents(executor, businessId, row.stock - item.quantity, {
        productId: row.id, name: row.name,
        stock: row.stock, threshold: row.threshold
      })
    }
  }
  await catalogChanged(executor, businessId)
}

/**
 * Moves an order along ORDER_TRANSITIONS under a row lock, so two concurrent moves cannot both win.
 * Unknown status → 400; illegal move → 409 and nothing written. Emits order.status_changed, plus
 * order.delivered or order.cancelled. Built-in payments (no app method) complete on delivery;
 * a pending payment is cancelled with the order, and the items are restocked.
 */
export async function updateOrderStatus (executor: Executor, businessId: string, id: string, status: string): Promise<Order> {
  if (!isOrderStatus(status)) throw badRequest('order_status_unknown', `Unknown order status ${JSON.stringify(status)}; one of ${ORDER_STATUSES.join(', ')}`)
  return await executor.transaction(async (tx) => {
    const before = await findOrderRow(tx, businessId, id, true)
    if (!ORDER_TRANSITIONS[before.status].includes(status)) {
      throw conflict('order_transition_invalid', `An order cannot move from ${before.status} to ${status}`)
    }
    const paymentStatus = status === 'DELIVERED' && before.paymentMethodId === null && before.paymentStatus === 'PENDING'
      ? 'COMPLETED' as const
      : status === 'CANCELLED' && before.paymentStatus === 'PENDING' ? 'CANCELLED' as const : before.paymentStatus
    const [row] = await tx.update(orders).set({ status, paymentStatus, updatedAt: databaseNow() })
      .where(and(eq(orders.businessId, businessId), eq(orders.id, id), eq(orders.status, before.status))).returning()
    if (row === undefined) throw conflict('order_changed', 'The order changed meanwhile; reload it and retry')
    const data = orderEventData(row)
    await recordActivity(tx, {
      businessId, action: 'order.status_changed', resource: { type: 'order', id },
      changes: {
        status: { from: before.status, to: status },
        ...(paymentStatus !== before.paymentStatus ? { paymentStatus: { from: before.paymentStatus, to: paymentStatus } } : {})
      }
    })
    await emitEvent(tx, { businessId, event: 'order.status_changed', data: { ...data, previousStatus: before.status } })
    if (status === 'DELIVERED') await emitEvent(tx, { businessId, event: 'order.delivered', data })
    if (status === 'CANCELLED') {
      await emitEvent(tx, { businessId, event: 'order.cancelled', data })
      await restock(tx, businessId, row.items)
    }
    return serializeOrder(row)
  })
}
