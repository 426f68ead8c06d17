import type { Scope } from './scopes.ts'

/** Every webhook event and the scope an app needs to receive it (null: no scope needed). DESIGN §7, §9. */
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
  'webhook.test': null,
  // app billing (DESIGN §23): to the app's own webhook URL, whatever its webhookEvents
  'app_subscription.updated': null,
  'app_purchase.updated': null,
  // bulk exports (DESIGN §25): to the app's own webhook URL when its export is COMPLETED or FAILED
  'bulk_export.finished': null
} as const satisfies Record<string, Scope | null>
export type EventName = keyof typeof EVENT_SCOPES
export const EVENT_NAMES = Object.keys(EVENT_SCOPES) as EventName[]

/**
 * Events aimed at one installation, sent to the app's own webhook URL without a subscription: the
 * erasure after an uninstall, the app's own charges changing (DESIGN §23) and its bulk exports finishing (§25).
 */
export const INSTALLATION_EVENTS = ['business.data_erasure', 'app_subscription.updated', 'app_purchase.updated', 'bulk_export.finished'] as const
export type InstallationEvent = typeof INSTALLATION_EVENTS[number]

/** Events a webhook can subscribe to: the installation events are always sent, webhook.test on demand. */
export const SUBSCRIBABLE_EVENTS = EVENT_NAMES.filter((event) => event !== 'webhook.test' && !(INSTALLATION_EVENTS as readonly string[]).includes(event)) as Array<Exclude<EventName, 'webhook.test' | InstallationEvent>>
export type SubscribableEvent = typeof SUBSCRIBABLE_EVENTS[number]

/**
 * How deliveries and hook calls are signed (DESIGN §21): `spec`, the X-Webhook-* headers (the default),
 * or `standard-webhooks`, the webhook-id / webhook-timestamp / webhook-signature headers of
 * https://www.standardwebhooks.com.
 */
export const SIGNATURE_SCHEMES = ['spec', 'standard-webhooks'] as const
export type SignatureScheme = typeof SIGNATURE_SCHEMES[number]
export const DEFAULT_SIGNATURE_SCHEME: SignatureScheme = 'spec'

/** Checkout hook points (DESIGN §10). */
export const HOOK_POINTS = ['checkout.payment_methods', 'checkout.create_payment', 'checkout.shipping_rates', 'order.validate', 'order.calculate_discounts'] as const
export type HookPoint = typeof HOOK_POINTS[number]

/** The scope an app needs for a hook point to be called (DESIGN §7). */
export const HOOK_SCOPES: Record<HookPoint, Scope> = {
  'checkout.payment_methods': 'write_payments',
  'checkout.create_payment': 'write_payments',
  'checkout.shipping_rates': 'write_shipping',
  'order.validate': 'read_orders',
  'order.calculate_discounts': 'write_discounts'
}
