/** Webhook events (spec, Events) and hook points (spec, Outbound calls) with their payloads. */
import { EVENT_NAMES, HOOK_POINTS } from './contract/events.ts'
import type { Purchase, Subscription } from './contract/billing.ts'
import type { SyncResource } from './contract/bulk-exports.ts'

/** The event catalog: the contract's list (sdk/src/contract). */
export const WEBHOOK_EVENTS = EVENT_NAMES

/** A catalogued event name; `string & {}` keeps events added later by the platform assignable. */
export type WebhookEventName = typeof WEBHOOK_EVENTS[number] | (string & {})

export { HOOK_POINTS }

export type HookPointName = typeof HOOK_POINTS[number] | (string & {})

/** data of order.* events (DESIGN §9: the fields of order.created plus status). */
export interface OrderEventData {
  orderId: string
  orderNumber: string
  amount: number
  deliveryFee: number
  deliveryMethod: string
  paymentMethod: string
  isGuest: boolean
  createdAt: string
  status?: string
  /** order.status_changed only. */
  previousStatus?: string
}

/** data of product.out_of_stock, product.low_stock and product.back_in_stock. */
export interface InventoryEventData {
  productId: string
  name: string
  stock: number
  threshold: number
}

/** data of payment.completed and payment.expired. */
export interface PaymentEventData {
  orderId: string
  invoiceId: string
  amount: string | number
  currency: string
  paymentMethodId: string
}

/** data of business.data_erasure: the app must delete everything it stored for this business. */
export interface DataErasureEventData {
  appId: string
  businessId: string
  uninstalledAt: string
}

/**
 * data of app_subscription.updated: the subscription as the App API shows it (DESIGN §23), sent to the
 * app's webhook URL whenever one of its charges changes status (approved, declined, expired, cancelled,
 * replaced), whatever its webhookEvents.
 */
export type AppSubscriptionEventData = Subscription

/** data of app_purchase.updated: the one-time purchase as the App API shows it. */
export type AppPurchaseEventData = Purchase

/**
 * data of bulk_export.finished (DESIGN §25), sent to the app's webhook URL whatever its webhookEvents
 * when one of its bulk exports ends: read it with `getBulkExport(exportId)` (COMPLETED: its signed url).
 */
export interface BulkExportFinishedEventData {
  exportId: string
  resource: SyncResource
  status: 'COMPLETED' | 'FAILED'
  /** Records in the file; null when the export FAILED. */
  rowCount: number | null
}

/** data of webhook.test. */
export interface WebhookTestEventData {
  webhookId: string
  message: string
}

export interface HookOrderItem { productId: string, quantity: number }

/** Request data per hook point (all money in minor units; create_payment.amount is a string). */
export interface HookRequestDataMap {
  'checkout.payment_methods': { businessId: string }
  'checkout.create_payment': { orderId: string, amount: string, currency: string, paymentMethodId: string, businessId: string, description: string }
  'checkout.shipping_rates': { deliveryMethod: string, locality?: string, subtotal: number, builtInFee: number }
  'order.validate': { items: HookOrderItem[], subtotal: number, deliveryMethod: string }
  'order.calculate_discounts': { items: HookOrderItem[], subtotal: number, promoDiscount: number, deliveryFee: number }
}

/** The JSON an app answers per hook point. */
export interface HookResponseMap {
  'checkout.payment_methods': { methods: Array<{ id: string, name: string, description?: string, icon?: string }> }
  'checkout.create_payment': { paymentUrl?: string, qrCode?: string, invoiceId?: string, expiresAt?: string }
  'checkout.shipping_rates': { fee: number }
  'order.validate': { valid: boolean, reason?: string }
  'order.calculate_discounts': { discount: number, reason?: string }
}
