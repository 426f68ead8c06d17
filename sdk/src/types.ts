/**
 * Records of the App API and webhook management (spec, Resources; DESIGN §5-6). Money is in minor units.
 * The resources are the contract's (./contract/resources.ts: the TypeBox schemas the server validates
 * and documents its answers with, typed there with Static<>); only request parameters are written here.
 */
import type {
  Business, BlockInstance, CreatedWebhookRegistration, Customer, Dashboard, DeliveryWithAttempts, GuestOrderBody, ListEnvelope, Order, OrderItem,
  Page, Product, Redelivered, Replayed, Review, ReviewStats, UpdatedWebhookRegistration, WebhookRegistration, WebhookTestResult
} from './contract/resources.ts'
import type { CreateWebhookBody, ReplayBody, UpdateWebhookBody } from './contract/webhook-bodies.ts'
import type { CreateChargeBody, UsageRecordBody } from './contract/billing.ts'

export type {
  Business, BlockInstance, Customer, Order, OrderItem, Page, Product, Redelivered, Replayed, Review, ReviewStats, WebhookRegistration, WebhookTestResult
}

/** The global fetch, or any function with its shape (an undici fetch, a test double of the network). */
export type FetchLike = (input: string, init?: RequestInit) => Promise<Response>

export interface ListParams {
  /** 1-based, default 1. */
  page?: number
  /** Page size; clamped by the server to the endpoint's maximum (products 100, orders 50, reviews 50, others 100). */
  limit?: number
}

/** The list envelope of every paginated endpoint. */
export type ListResponse<T> = ListEnvelope<T>

/** The order statuses, the contract's list. */
export { ORDER_STATUSES } from './contract/resources.ts'
export type OrderStatus = Order['status']

export interface OrderListParams extends ListParams {
  status?: OrderStatus
}

/** Body of POST /app-api/orders (a guest order through the checkout pipeline, hooks included): the contract's GuestOrderBody. */
export type CreateOrderInput = GuestOrderBody

export interface ReviewListParams extends ListParams {
  productId?: string
}

export interface DashboardParams {
  /** ISO 8601 date or timestamp. */
  from?: string
  to?: string
}

export type DashboardAnalytics = Dashboard

/** The creation response carries the secret. */
export type CreatedWebhook = CreatedWebhookRegistration
/** PATCH /webhooks/:id: `secret` only when a switch to standard-webhooks issued a new one (a test install's `whsec_test_` secret). */
export type UpdatedWebhook = UpdatedWebhookRegistration

/** POST /webhooks (the contract's CreateWebhookBody). */
export type CreateWebhookInput = CreateWebhookBody

/** PATCH /webhooks/:id; `isActive: true` re-enables a registration disabled after repeated failures (the contract's UpdateWebhookBody). */
export type UpdateWebhookInput = UpdateWebhookBody

/** A delivery of the log, with every attempt. */
export type WebhookDelivery = DeliveryWithAttempts

export interface DeliveryListParams extends ListParams {
  status?: string
  event?: string
}

/** POST /webhooks/:id/replay: re-send every delivery since `since` (ISO 8601), optionally of one status (the contract's ReplayBody). */
export type ReplayInput = ReplayBody

/** App billing's records (DESIGN §23), the contract's: money is `{ amount, currency }`, integer minor units. */
export type {
  BillingMoney, ChargeStatus, Pricing, PricingPlan, PlanInterval, PlanKind, Purchase, Subscription, UsageRecord
} from './contract/billing.ts'
export { CHARGE_STATUSES } from './contract/billing.ts'

/** POST /app-api/billing/subscriptions: a RECURRING plan, and where the merchant comes back to (the App URL's or redirect URL's origin). */
export type CreateSubscriptionInput = CreateChargeBody
/** POST /app-api/billing/purchases: a ONE_TIME plan, the same body. */
export type CreatePurchaseInput = CreateChargeBody
/** POST /app-api/billing/subscriptions/:id/usage-records; `idempotencyKey` is required (the order id, say). */
export type CreateUsageRecordInput = UsageRecordBody

/** The last X-RateLimit-* headers seen (spec, Limits). */
export interface RateLimitInfo {
  limit: number | null
  remaining: number | null
  /** Unix seconds when the window resets. */
  reset: number | null
}
