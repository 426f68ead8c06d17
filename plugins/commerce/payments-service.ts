import { and, eq } from 'drizzle-orm'
import { orders } from '../../server/db/schema/index.ts'
import type { Executor } from '../../server/db/client.ts'
import { emitEvent } from '../../server/events.ts'
import { recordActivity } from '../../server/activity.ts'
import { conflict } from './errors.ts'
import type { Order } from './schemas.ts'
import { serializeOrder } from './serializers.ts'
import { findOrderRow, getOrder, updateOrderStatus } from './orders-service.ts'
import { databaseNow } from '../../server/clock.ts'

export interface PaymentSession { invoiceId?: string, expiresAt?: Date }

/** Stores what the app's checkout.create_payment answered for an order paid with its method. */
export async function attachPaymentSession (executor: Executor, businessId: string, orderId: string, session: PaymentSession): Promise<Order> {
  return await executor.transaction(async (tx) => {
    const before = await findOrderRow(tx, businessId, orderId, true)
    if (before.paymentMethodId === null) throw conflict('payment_not_app', 'This order is not paid with an app payment method')
    const [row] = await tx.update(orders).set({
      paymentInvoiceId: session.invoiceId ?? before.paymentInvoiceId,
      paymentExpiresAt: session.expiresAt ?? before.paymentExpiresAt,
      updatedAt: databaseNow()
    }).where(and(eq(orders.businessId, businessId), eq(orders.id, orderId))).returning()
    return serializeOrder(row)
  })
}

type Outcome = 'COMPLETED' | 'EXPIRED' | 'FAILED'
const OUTCOME_EVENTS = { COMPLETED: 'payment.completed', EXPIRED: 'payment.expired', FAILED: null } as const

/**
 * PENDING → COMPLETED | EXPIRED | FAILED for an order paid with an app method, under a row lock;
 * anything else is 409 and writes nothing. COMPLETED and EXPIRED emit payment.* (the catalog has no
 * failure event).
 */
export async function settlePayment (executor: Executor, businessId: string, orderId: string, outcome: Outcome, invoiceId?: string): Promise<Order> {
  return await executor.transaction(async (tx) => {
    const before = await findOrderRow(tx, businessId, orderId, true)
    if (before.paymentMethodId === null) throw conflict('payment_not_app', 'This order is not paid with an app payment method')
    if (before.paymentStatus !== 'PENDING') throw conflict('payment_settled', `The payment is already ${before.paymentStatus}`)
    if (invoiceId !== undefined && before.paymentInvoiceId !== null && invoiceId !== before.paymentInvoiceId) {
      throw conflict('payment_invoice_mismatch', 'The invoice id does not match the order\'s payment')
    }
    const [row] = await tx.update(orders)
      .set({ paymentStatus: outcome, paymentInvoiceId: before.paymentInvoiceId ?? invoiceId ?? null, updatedAt: databaseNow() })
      .where(and(eq(orders.businessId, businessId), eq(orders.id, orderId))).returning()
    await recordActivity(tx, {
      businessId, action: `order.payment_${outcome.toLowerCase()}`, resource: { type: 'order', id: orderId },
      changes: { paymentStatus: { from: before.paymentStatus, to: outcome } }
    })
    const event = OUTCOME_EVENTS[outcome]
    if (event !== null) {
      await emitEvent(tx, {
        businessId,
        event,
        data: { orderId: row.id, invoiceId: row.paymentInvoiceId, amount: row.amount, currency: row.currency, paymentMethodId: row.paymentMethodId }
      })
    }
    return serializeOrder(row)
  })
}

export const completePayment = (executor: Executor, businessId: string, orderId: string, invoiceId?: string) => settlePayment(executor, businessId, orderId, 'COMPLETED', invoiceId)
export const expirePayment = (executor: Executor, businessId: string, orderId: string, invoiceId?: string) => settlePayment(executor, businessId, orderId, 'EXPIRED', invoiceId)
export const failPayment = (executor: Executor, businessId: string, orderId: string, invoiceId?: string) => settlePayment(executor, businessId, orderId, 'FAILED', invoiceId)

/**
 * The end of a stock hold: the unpaid payment becomes EXPIRED (payment.expired for an app method), and
 * an order the merchant has not accepted yet (still PENDING) is cancelled, which puts its items back on
 * the shelf and emits order.status_changed and order.cancelled. Call it in the order's transaction.
 */
export async function expireUnpaidOrder (executor: Executor, businessId: string, orderId: string): Promise<Order> {
  return await executor.transaction(async (tx) => {
    const before = await findOrderRow(tx, businessId, orderId, true)
    if (before.paymentStatus !== 'PENDING') throw conflict('payment_settled', `The payment is already ${before.paymentStatus}`)
    if (before.paymentMethodId !== null) {
      await expirePayment(tx, businessId, orderId)
    } else {
      await tx.update(orders).set({ paymentStatus: 'EXPIRED', updatedAt: databaseNow() }).where(and(eq(orders.businessId, businessId), eq(orders.id, orderId)))
      await recordActivity(tx, { businessId, action: 'order.payment_expired', resource: { type: 'order', id: orderId }, changes: { paymentStatus: { from: 'PENDING', to: 'EXPIRED' } } })
    }
    if (before.status !== 'PENDING') return await getOrder(tx, businessId, orderId)
    return await updateOrderStatus(tx, businessId, orderId, 'CANCELLED')
  })
}
