/** Shapes of the merchant commerce endpoints, as the admin screens use them (the contract's). */
import type { Business, Dashboard, Order, Product, Review } from '../../../sdk/src/contract/resources.ts'

export { ORDER_STATUSES, ORDER_TRANSITIONS, PRODUCT_STATUSES } from '../../../sdk/src/contract/resources.ts'
export type { Dashboard, Order, Product, Review }
export type OrderStatus = Order['status']
export type ProductStatus = Product['status']

/** GET /merchant/business: the profile and where the store is. */
export type MerchantBusiness = Business & { storefrontUrl: string }

/** GET /merchant/orders/:id/checkout. */
export interface OrderCheckout {
  paymentMethod: { id: string, provider: 'platform' | 'app', methodId: string, appId: string | null, appName: string | null }
  discounts: Array<{ appId: string, appName: string | null, amount: number, reason: string | null }>
  hookCalls: Array<{
    id: string, hookPoint: string, appId: string, appName: string | null, success: boolean, statusCode: number | null,
    durationMs: number, error: string | null, answer: unknown, policyApplied: string | null, createdAt: string
  }>
}

export const ORDER_STATUS_LABEL: Record<OrderStatus, string> = {
  PENDING: 'Pending', CONFIRMED: 'Confirmed', PREPARING: 'Preparing', READY: 'Ready', IN_DELIVERY: 'In delivery', DELIVERED: 'Delivered', CANCELLED: 'Cancelled'
}
export const PRODUCT_STATUS_LABEL: Record<ProductStatus, string> = { ACTIVE: 'Active', DRAFT: 'Draft', ARCHIVED: 'Archived' }
