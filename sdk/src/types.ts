/** Records of the App API and webhook management (spec, Resources; DESIGN §5-6). Money is in minor units. */

/** The global fetch, or any function with its shape (an undici fetch, a test double of the network). */
export type FetchLike = (input: string, init?: RequestInit) => Promise<Response>

export interface ListParams {
  /** 1-based, default 1. */
  page?: number
  /** Page size; clamped by the server to the endpoint's maximum (products 100, orders 50, reviews 50, others 100). */
  limit?: number
}

/** The list envelope of every paginated endpoint. */
export interface ListResponse<T> {
  data: T[]
  total: number
  page: number
  limit: number
}

export interface Product {
  id: string
  name: string
  description: string
  price: number
  category: string
  isAvailable: boolean
  imageUrl: string
  slug: string
  status: string
  createdAt: string
}

export const ORDER_STATUSES = ['PENDING', 'CONFIRMED', 'PREPARING', 'READY', 'IN_DELIVERY', 'DELIVERED', 'CANCELLED'] as const
export type OrderStatus = typeof ORDER_STATUSES[number]

export interface OrderItem {
  productId: string
  name: string
  quantity: number
  unitPrice: number
  total: number
}

export interface Customer {
  name: string
  phone: string
  email: string
}

export interface Order {
  id: string
  orderNumber: string
  status: OrderStatus
  items: OrderItem[]
  subtotal: number
  deliveryFee: number
  discount: number
  amount: number
  currency: string
  deliveryMethod: string
  paymentMethod: string
  paymentStatus: string
  isGuest: boolean
  customer: Customer
  address: string
  createdAt: string
  updatedAt: string
}

export interface OrderListParams extends ListParams {
  status?: OrderStatus
}

/** Body of POST /app-api/orders (a guest order through the checkout pipeline, hooks included). */
export interface CreateOrderInput {
  items: Array<{ productId: string, quantity: number }>
  customer: Customer
  deliveryMethod: 'DELIVERY' | 'PICKUP'
  address?: string
  locality?: string
  paymentMethod: string
}

export interface Review {
  id: string
  productId: string
  rating: number
  text: string
  authorName: string
  createdAt: string
}

export interface ReviewListParams extends ListParams {
  productId?: string
}

export interface ReviewStats {
  averageRating: number
  totalReviews: number
  /** Count per star, keys "1" to "5". */
  distribution: Record<'1' | '2' | '3' | '4' | '5', number>
}

export interface DashboardParams {
  /** ISO 8601 date or timestamp. */
  from?: string
  to?: string
}

export interface DashboardAnalytics {
  from: string
  to: string
  revenue: number
  orderCount: number
  averageOrderValue: number
  ordersByStatus: Record<string, number>
  topProducts: Array<Record<string, unknown>>
  daily: Array<{ date: string, revenue: number, orders: number }>
}

export interface Business {
  id: string
  name: string
  slug: string
  type: string
  address: string
  currency: string
  locale: string
  timezone: string
  email: string
  phone: string
}

export interface BlockInstance {
  id: string
  installationId: string
  blockType: string
  settings: Record<string, unknown>
}

export interface Page {
  id: string
  slug: string
  title: string
  isPublished: boolean
  blocks: BlockInstance[]
  updatedAt: string
}

export interface WebhookRegistration {
  id: string
  url: string
  events: string[]
  description?: string
  isActive: boolean
  createdAt: string
}

/** The creation response is the only one that carries the secret. */
export interface CreatedWebhook extends WebhookRegistration {
  secret: string
}

export interface CreateWebhookInput {
  url: string
  events: string[]
  description?: string
}

export interface UpdateWebhookInput {
  url?: string
  events?: string[]
  description?: string
  /** true re-enables a registration disabled after repeated failures. */
  isActive?: boolean
}

export interface WebhookTestResult {
  success: boolean
  statusCode: number | null
  durationMs: number
  error?: string
}

export interface WebhookDelivery {
  id: string
  event: string
  status: string
  [field: string]: unknown
}

export interface DeliveryListParams extends ListParams {
  status?: string
  event?: string
}

export interface ReplayInput {
  /** ISO 8601: re-send every delivery since then. */
  since: string
  status?: string
}

/** The last X-RateLimit-* headers seen (spec, Limits). */
export interface RateLimitInfo {
  limit: number | null
  remaining: number | null
  /** Unix seconds when the window resets. */
  reset: number | null
}
