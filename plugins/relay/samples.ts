import { orderExample, productExample, reviewExample } from '../../sdk/src/contract/examples.ts'
import { SUBSCRIBABLE_EVENTS } from '../../sdk/src/contract/index.ts'
import type { EventName } from '../../server/events.ts'

/** The events `app-platform trigger` emits: the catalogue's, save the two the platform alone sends (the trigger body's documented enum). */
export const TRIGGERABLE_EVENTS: readonly EventName[] = SUBSCRIBABLE_EVENTS

const order = {
  orderId: orderExample.id,
  orderNumber: orderExample.orderNumber,
  amount: 1300,
  deliveryFee: 0,
  deliveryMethod: 'PICKUP',
  paymentMethod: 'CASH',
  isGuest: true,
  status: orderExample.status
}
const stock = { productId: productExample.id, name: productExample.name, stock: 0, threshold: productExample.lowStockThreshold }

/**
 * A sample `data` of each event, shaped as the platform's own (plugins/commerce), marked `sample: true`
 * so an app can tell a triggered event from a real one.
 */
export function sampleData (event: EventName, at: Date): Record<string, unknown> {
  const createdAt = at.toISOString()
  const samples: Partial<Record<EventName, Record<string, unknown>>> = {
    'order.created': { ...order, createdAt },
    'order.status_changed': { ...order, status: 'PREPARING', previousStatus: 'CONFIRMED', createdAt },
    'order.delivered': { ...order, status: 'DELIVERED', createdAt },
    'order.cancelled': { ...order, status: 'CANCELLED', createdAt },
    'payment.completed': { orderId: order.orderId, orderNumber: order.orderNumber, amount: order.amount, paymentMethod: 'app', status: 'COMPLETED', createdAt },
    'payment.expired': { orderId: order.orderId, orderNumber: order.orderNumber, amount: order.amount, paymentMethod: 'app', status: 'EXPIRED', createdAt },
    'product.created': { ...productExample, createdAt, updatedAt: createdAt },
    'product.updated': { ...productExample, createdAt, updatedAt: createdAt },
    'product.deleted': { ...productExample, createdAt, updatedAt: createdAt },
    'product.out_of_stock': { ...stock, stock: 0 },
    'product.low_stock': { ...stock, stock: 3 },
    'product.back_in_stock': { ...stock, stock: 12 },
    'review.created': { ...reviewExample, createdAt },
    'review.deleted': { ...reviewExample, createdAt }
  }
  return { ...(samples[event] ?? {}), sample: true }
}
