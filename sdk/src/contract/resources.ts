import { Type, type Static, type TLiteral, type TSchema, type TUnion, type TUnknown } from '@sinclair/typebox'
import { ApiVersionSchema } from './api-version-names.ts'
import { EventNameValue, ScopeValue, SignatureSchemeSchema, StringEnum } from './schemas.ts'
import { businessExample, orderExample, pageExample, productExample, reviewExample, webhookRegistrationExample } from './examples.ts'

/**
 * The resources of the App API and webhook management (DESIGN §16 "Contract source"): the server
 * validates and documents its answers with these schemas, the SDK types its client with them
 * (`Static<>`). test/contract/drift.test.ts fails when one of their shapes is written out elsewhere.
 */

export const Iso = Type.String({ format: 'date-time' })
export const Money = (description: string) => Type.Integer({ minimum: 0, maximum: 1_000_000_000, description: `${description}, integer minor units` })
const Nullable = <T extends ReturnType<typeof Type.String> | ReturnType<typeof Type.Integer>>(schema: T) => Type.Union([schema, Type.Null()])

/** The list envelope of every paginated endpoint. */
export function Paginated<T extends TSchema> (item: T) {
  return Type.Object({
    data: Type.Array(item),
    total: Type.Integer({ description: 'All matching items' }),
    page: Type.Integer(),
    limit: Type.Integer({ description: 'The page size used' })
  })
}
/** The envelope around items of type T. */
export type ListEnvelope<T> = Omit<Static<ReturnType<typeof Paginated<TUnknown>>>, 'data'> & { data: T[] }

/** The statuses, one list each: the database columns, the SDK and these schemas read them from here. */
export const PRODUCT_STATUSES = ['ACTIVE', 'DRAFT', 'ARCHIVED'] as const
export const ORDER_STATUSES = ['PENDING', 'CONFIRMED', 'PREPARING', 'READY', 'IN_DELIVERY', 'DELIVERED', 'CANCELLED'] as const
export const PAYMENT_STATUSES = ['PENDING', 'COMPLETED', 'FAILED', 'EXPIRED', 'CANCELLED'] as const
/** What a customer reads for each status on the store's confirmation page (the codes are the API's, not words). */
export const ORDER_STATUS_WORDS: Record<typeof ORDER_STATUSES[number], string> = {
  PENDING: 'Received, waiting for the store',
  CONFIRMED: 'Confirmed',
  PREPARING: 'Being prepared',
  READY: 'Ready',
  IN_DELIVERY: 'On its way',
  DELIVERED: 'Delivered',
  CANCELLED: 'Cancelled'
}
export const PAYMENT_STATUS_WORDS: Record<typeof PAYMENT_STATUSES[number], string> = {
  PENDING: 'Not paid yet',
  COMPLETED: 'Paid',
  FAILED: 'Failed',
  EXPIRED: 'Expired',
  CANCELLED: 'Cancelled'
}
/** The only legal order moves (DESIGN §6); DELIVERED and CANCELLED are final. */
export const ORDER_TRANSITIONS: Record<typeof ORDER_STATUSES[number], ReadonlyArray<typeof ORDER_STATUSES[number]>> = {
  PENDING: ['CONFIRMED', 'CANCELLED'],
  CONFIRMED: ['PREPARING', 'CANCELLED'],
  PREPARING: ['READY', 'CANCELLED'],
  READY: ['IN_DELIVERY', 'DELIVERED', 'CANCELLED'],
  IN_DELIVERY: ['DELIVERED', 'CANCELLED'],
  DELIVERED: [],
  CANCELLED: []
}
export const DELIVERY_METHODS = ['DELIVERY', 'PICKUP'] as const

/** A union of literals built from a constant list, keeping each literal's type (documented as `anyOf` of `const`s). */
function Literals<T extends string> (values: readonly T[], options: { description?: string } = {}): TUnion<Array<TLiteral<T>>> {
  return Type.Union(values.map((value) => Type.Literal(value)), options)
}

export const ProductStatus = Literals(PRODUCT_STATUSES)
export const OrderStatus = Literals(ORDER_STATUSES, { description: 'An order status' })
export const PaymentStatus = Literals(PAYMENT_STATUSES)
export const DeliveryMethod = Literals(DELIVERY_METHODS)

// ---- products

export const ProductSchema = Type.Object({
  id: Type.String(),
  name: Type.String(),
  description: Type.String(),
  price: Money('Price'),
  category: Type.String(),
  isAvailable: Type.Boolean(),
  imageUrl: Type.String({ description: 'Path or URL of the image' }),
  slug: Type.String(),
  status: ProductStatus,
  stock: Type.Integer({ minimum: 0 }),
  lowStockThreshold: Type.Integer({ minimum: 0, description: 'product.low_stock fires when stock falls to or below it' }),
  createdAt: Iso,
  updatedAt: Iso
}, { title: 'Product', examples: [productExample] })
export type Product = Static<typeof ProductSchema>

// ---- orders

export const OrderItemSchema = Type.Object({
  productId: Type.String(),
  name: Type.String(),
  quantity: Type.Integer({ minimum: 1 }),
  unitPrice: Money('Unit price'),
  total: Money('Line total')
}, { title: 'OrderItem' })
export type OrderItem = Static<typeof OrderItemSchema>

export const CustomerSchema = Type.Object({
  name: Type.String({ minLength: 1, maxLength: 200 }),
  phone: Type.String({ maxLength: 40 }),
  email: Type.String({ maxLength: 254 })
}, { title: 'Customer' })
export type Customer = Static<typeof CustomerSchema>

export const OrderSchema = Type.Object({
  id: Type.String(),
  orderNumber: Type.String(),
  status: OrderStatus,
  items: Type.Array(OrderItemSchema),
  subtotal: Money('Sum of the line totals'),
  deliveryFee: Money('Delivery fee'),
  discount: Money('Discount: the promo code\'s plus the apps\' (order.calculate_discounts), capped at the subtotal'),
  promoCode: Nullable(Type.String({ description: 'The merchant\'s promo code the order used, upper case; null without one' })),
  promoDiscount: Money('What the promo code took off (part of discount)'),
  amount: Money('subtotal + deliveryFee - discount'),
  currency: Type.String({ examples: ['USD'] }),
  deliveryMethod: DeliveryMethod,
  paymentMethod: Type.String({ description: 'CASH, CARD, or an app-provided payment method id' }),
  paymentStatus: PaymentStatus,
  isGuest: Type.Boolean(),
  customer: CustomerSchema,
  address: Type.String(),
  createdAt: Iso,
  updatedAt: Iso
}, { title: 'Order', examples: [orderExample] })
export type Order = Static<typeof OrderSchema>

/** Body of POST /app-api/orders and the storefront's order: a guest order through the checkout pipeline, hooks included. */
export const GuestOrderBodySchema = Type.Object({
  items: Type.Array(Type.Object({
    productId: Type.String({ minLength: 1, maxLength: 64 }),
    // the server's MAX_LINE_QUANTITY (default 20, at most 1000) is the real ceiling: its document says that value
    quantity: Type.Integer({ minimum: 1, maximum: 1000, configuredMaximum: 'MAX_LINE_QUANTITY', description: 'At most MAX_LINE_QUANTITY (default 20) of one product per order, lines of the same product added together' })
  }, { additionalProperties: false }), { minItems: 1, maxItems: 100 }),
  customer: Type.Object({
    name: Type.String({ minLength: 1, maxLength: 200 }),
    phone: Type.Optional(Type.String({ maxLength: 40 })),
    email: Type.Optional(Type.String({ format: 'email', maxLength: 254 }))
  }, { additionalProperties: false }),
  deliveryMethod: DeliveryMethod,
  address: Type.Optional(Type.String({ maxLength: 500, description: 'Required for DELIVERY' })),
  locality: Type.Optional(Type.String({ maxLength: 200 })),
  paymentMethod: Type.String({ minLength: 1, maxLength: 200, description: 'CASH, CARD, or an id from checkout.payment_methods' }),
  promoCode: Type.Optional(Type.String({ maxLength: 64, description: 'One of the merchant\'s promo codes, any case; unknown, inactive, expired or below its minimum subtotal → 422' }))
}, { title: 'GuestOrderBody', additionalProperties: false })
export type GuestOrderBody = Static<typeof GuestOrderBodySchema>

// ---- reviews

export const ReviewSchema = Type.Object({
  id: Type.String(),
  productId: Type.String(),
  rating: Type.Integer({ minimum: 1, maximum: 5 }),
  text: Type.String(),
  authorName: Type.String(),
  createdAt: Iso,
  updatedAt: Type.String({ format: 'date-time', description: 'Its last change (incremental sync, DESIGN §25)' })
}, { title: 'Review', examples: [reviewExample] })
export type Review = Static<typeof ReviewSchema>

export const ReviewStatsSchema = Type.Object({
  averageRating: Type.Number({ description: 'Rounded to 2 decimals; 0 without reviews' }),
  totalReviews: Type.Integer(),
  distribution: Type.Object({ 1: Type.Integer(), 2: Type.Integer(), 3: Type.Integer(), 4: Type.Integer(), 5: Type.Integer() })
}, { title: 'ReviewStats' })
export type ReviewStats = Static<typeof ReviewStatsSchema>

// ---- pages

export const BlockInstanceSchema = Type.Object({
  id: Type.String(),
  installationId: Type.String(),
  blockType: Type.String(),
  settings: Type.Record(Type.String(), Type.Unknown())
}, { title: 'BlockInstance' })
export type BlockInstance = Static<typeof BlockInstanceSchema>

export const PageSchema = Type.Object({
  id: Type.String(),
  slug: Type.String(),
  title: Type.String(),
  isPublished: Type.Boolean(),
  blocks: Type.Array(BlockInstanceSchema),
  updatedAt: Iso
}, { title: 'Page', examples: [pageExample] })
export type Page = Static<typeof PageSchema>

// ---- business

export const BusinessSchema = Type.Object({
  id: Type.String(),
  name: Type.String(),
  slug: Type.String(),
  type: Type.String({ examples: ['RESTAURANT'] }),
  address: Type.String(),
  currency: Type.String({ examples: ['USD'] }),
  locale: Type.String({ examples: ['en'] }),
  timezone: Type.String({ examples: ['UTC'] }),
  email: Type.String(),
  phone: Type.String()
}, { title: 'Business', examples: [businessExample] })
export type Business = Static<typeof BusinessSchema>

// ---- analytics

export const IsoDate = Type.String({ format: 'date', description: 'YYYY-MM-DD, in the business time zone' })
/** The longest period a dashboard covers (400 otherwise). */
export const MAX_DASHBOARD_DAYS = 366

export const DashboardSchema = Type.Object({
  from: IsoDate,
  to: IsoDate,
  revenue: Money('Sum of order amounts, CANCELLED excluded'),
  orderCount: Type.Integer({ description: 'Orders placed in the period, CANCELLED excluded' }),
  averageOrderValue: Type.Integer({ description: 'revenue / orderCount, rounded; 0 without orders' }),
  ordersByStatus: Type.Record(Type.String(), Type.Integer(), { description: 'Every status, CANCELLED included, zero-filled' }),
  topProducts: Type.Array(Type.Object({ productId: Type.String(), name: Type.String(), quantity: Type.Integer(), revenue: Type.Integer() }), { description: 'Up to 5, by revenue' }),
  daily: Type.Array(Type.Object({ date: IsoDate, revenue: Type.Integer(), orders: Type.Integer() }), { maxItems: MAX_DASHBOARD_DAYS, description: `One entry per day of the period (at most ${MAX_DASHBOARD_DAYS})` })
}, { title: 'AnalyticsDashboard' })
export type Dashboard = Static<typeof DashboardSchema>

// ---- webhooks

export const DELIVERY_STATUSES = ['PENDING', 'SUCCEEDED', 'FAILED'] as const
export const DeliveryStatus = Type.Union(DELIVERY_STATUSES.map((s) => Type.Literal(s)))

export const WebhookRegistrationSchema = Type.Object({
  id: Type.String(),
  url: Type.String(),
  events: Type.Array(EventNameValue),
  description: Type.String(),
  isActive: Type.Boolean(),
  disabledReason: Nullable(Type.String()),
  consecutiveFailures: Type.Integer({ description: 'Failed deliveries in a row; auto-disable at WEBHOOK_DISABLE_AFTER_FAILURES' }),
  isAppWebhook: Type.Boolean({ description: "The app's own webhook, created at install from its webhookUrl" }),
  signatureScheme: SignatureSchemeSchema,
  apiVersion: Type.Union([ApiVersionSchema, Type.Null()], { description: 'The API version its deliveries are shaped for; null: the installation\'s pinned version' }),
  createdAt: Type.String({ format: 'date-time' }),
  updatedAt: Type.String({ format: 'date-time' })
}, { title: 'WebhookRegistration', examples: [webhookRegistrationExample] })
export type WebhookRegistration = Static<typeof WebhookRegistrationSchema>

export const CreatedWebhookRegistrationSchema = Type.Intersect([WebhookRegistrationSchema, Type.Object({ secret: Type.String({ description: 'Signing secret, shown only here', examples: ['whsec_…'] }) })], { title: 'CreatedWebhookRegistration' })
export type CreatedWebhookRegistration = Static<typeof CreatedWebhookRegistrationSchema>

export const UpdatedWebhookRegistrationSchema = Type.Intersect([WebhookRegistrationSchema, Type.Object({
  secret: Type.Optional(Type.String({
    description: 'A new signing secret, shown only here: given when a switch to `standard-webhooks` replaced a test install\'s `whsec_test_` secret, which Standard Webhooks libraries cannot read. Later deliveries are signed with it; the old one stops.',
    examples: ['whsec_…']
  }))
})], { title: 'UpdatedWebhookRegistration', examples: [{ ...webhookRegistrationExample, signatureScheme: 'standard-webhooks', secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw8RsyvBuNBy8=' }] })
export type UpdatedWebhookRegistration = Static<typeof UpdatedWebhookRegistrationSchema>

export const DeliveryAttemptSchema = Type.Object({
  attempt: Type.Integer(),
  statusCode: Nullable(Type.Integer()),
  durationMs: Type.Integer(),
  error: Nullable(Type.String()),
  responseSnippet: Nullable(Type.String({ description: 'First 1 KB of the answer' })),
  createdAt: Type.String({ format: 'date-time' })
}, { title: 'DeliveryAttempt' })
export type DeliveryAttempt = Static<typeof DeliveryAttemptSchema>

export const DeliverySchema = Type.Object({
  id: Type.String({ description: 'X-Service-Event-Id: the same on every retry and redelivery' }),
  webhookId: Type.String(),
  installationId: Type.String(),
  businessId: Type.String(),
  event: Type.String(),
  status: DeliveryStatus,
  attemptCount: Type.Integer(),
  lastStatusCode: Nullable(Type.Integer()),
  lastError: Nullable(Type.String()),
  lastDurationMs: Nullable(Type.Integer()),
  nextAttemptAt: Nullable(Type.String({ format: 'date-time' })),
  createdAt: Type.String({ format: 'date-time' }),
  completedAt: Nullable(Type.String({ format: 'date-time' }))
}, { title: 'Delivery' })
export type Delivery = Static<typeof DeliverySchema>

export const DeliveryWithAttemptsSchema = Type.Intersect([DeliverySchema, Type.Object({ attempts: Type.Array(DeliveryAttemptSchema) })], { title: 'DeliveryWithAttempts' })
export type DeliveryWithAttempts = Static<typeof DeliveryWithAttemptsSchema>

export const WebhookTestResultSchema = Type.Object({
  success: Type.Boolean(),
  statusCode: Nullable(Type.Integer({ description: 'null when no answer came (connection error, timeout)' })),
  durationMs: Type.Integer(),
  error: Type.Optional(Type.String())
}, { title: 'WebhookTestResult' })
export type WebhookTestResult = Static<typeof WebhookTestResultSchema>

export const RedeliveredSchema = Type.Object({ deliveryId: Type.String(), status: Type.Literal('PENDING') })
export type Redelivered = Static<typeof RedeliveredSchema>

export const ReplayedSchema = Type.Object({
  queued: Type.Integer({ minimum: 0, maximum: 1000, description: 'Deliveries queued by this call (at most 1 000)' }),
  remaining: Type.Integer({ minimum: 0, description: 'Matching deliveries this call did not queue, counted up to 10 000 (see remainingExact)' }),
  remainingExact: Type.Boolean({ description: 'false when more than 10 000 remain: `remaining` is then a lower bound (a replay never counts a whole log)' }),
  nextSince: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], { description: 'Call again with this `since` to go on; null when none remain' })
}, { title: 'Replayed' })
export type Replayed = Static<typeof ReplayedSchema>

// ---- apps (the developer's view)

export const APP_STATUSES = ['DRAFT', 'PENDING_REVIEW', 'APPROVED'] as const

/**
 * Where an app stands in review, as its developer reads it: the status, and whether the last review asked for
 * changes; for a published app (its approved version stays live while an edit that adds scopes waits, DESIGN §8)
 * the words say so, instead of a bare "Draft" for an app merchants can install.
 */
export const APP_REVIEW_STATE_WORDS = {
  DRAFT: 'Draft',
  CHANGES_REQUESTED: 'Changes requested',
  PENDING_REVIEW: 'Pending review',
  APPROVED: 'Approved',
  APPROVED_CHANGES_NOT_SUBMITTED: 'Approved · changes not submitted',
  APPROVED_CHANGES_PENDING_REVIEW: 'Approved · changes pending review',
  APPROVED_CHANGES_REQUESTED: 'Approved · changes requested'
} as const
export type AppReviewState = keyof typeof APP_REVIEW_STATE_WORDS

export function appReviewState (app: { status: typeof APP_STATUSES[number], isPublished: boolean, changesRequested: boolean }): AppReviewState {
  if (app.status === 'APPROVED') return 'APPROVED'
  if (app.status === 'PENDING_REVIEW') return app.isPublished ? 'APPROVED_CHANGES_PENDING_REVIEW' : 'PENDING_REVIEW'
  if (app.isPublished) return app.changesRequested ? 'APPROVED_CHANGES_REQUESTED' : 'APPROVED_CHANGES_NOT_SUBMITTED'
  return app.changesRequested ? 'CHANGES_REQUESTED' : 'DRAFT'
}

// AppSchema is in apps.ts: it carries the app's pricing (billing.ts, which imports this file)

export const AppVersionSchema = Type.Object({
  id: Type.String(),
  version: Type.String(),
  kind: Type.String({ description: 'SUBMITTED, APPROVED, REJECTED or UPDATED (live edit of an approved app)' }),
  changes: Type.Array(Type.String()),
  scopes: Type.Array(ScopeValue),
  approvedScopes: Type.Array(ScopeValue),
  notes: Type.Union([Type.String(), Type.Null()]),
  createdAt: Type.String({ format: 'date-time' })
}, { title: 'AppVersion' })

/** One entry of a review's record: a decision, a submission, a live edit, or a reply in the thread. */
export const ReviewEventSchema = Type.Object({
  id: Type.String(),
  kind: StringEnum(['SUBMITTED', 'APPROVED', 'REJECTED', 'UPDATED', 'REPLY'] as const),
  version: Type.Union([Type.String(), Type.Null()], { description: 'The app version the entry is about (null for a reply)' }),
  notes: Type.Union([Type.String(), Type.Null()], { description: "The reviewer's notes of a decision, or the text of a reply" }),
  changes: Type.Array(Type.String(), { description: 'Fields a live edit changed' }),
  author: Type.Object({ id: Type.String(), name: Type.String(), role: StringEnum(['DEVELOPER', 'REVIEWER'] as const) }),
  createdAt: Type.String({ format: 'date-time' })
}, { title: 'ReviewEvent' })
export type ReviewEvent = Static<typeof ReviewEventSchema>
export type AppVersion = Static<typeof AppVersionSchema>

// ---- marketplace and installations (what the merchant's screens read)

// AppListingSchema is in apps.ts, beside AppSchema: the listing shows the approved pricing

export const INSTALLATION_STATUSES = ['ACTIVE', 'PENDING', 'EXPIRED'] as const

export const InstallationSchema = Type.Object({
  installationId: Type.String(), appId: Type.String(), businessId: Type.String(), isTestInstall: Type.Boolean(), needsReConsent: Type.Boolean(),
  grantedScopes: Type.Array(ScopeValue), pendingScopes: Type.Array(ScopeValue, { description: 'Added scopes waiting for the merchant’s approval' }),
  installedAt: Iso, uninstalledAt: Type.Union([Iso, Type.Null()])
}, { title: 'Installation' })
export type Installation = Static<typeof InstallationSchema>

export const AdminPageLinkSchema = Type.Object({ pageId: Type.String(), title: Type.String(), iconName: Type.Union([Type.String(), Type.Null()]), renderUrl: Type.String() }, { title: 'AdminPageLink' })
export type AdminPageLink = Static<typeof AdminPageLinkSchema>

const ListedApp = Type.Object({
  id: Type.String(), name: Type.String(), slug: Type.String(),
  iconUrl: Type.Union([Type.String(), Type.Null()]), appUrl: Type.Union([Type.String(), Type.Null()])
})

/** An installed app as the admin lists it: the installation, its app, and where "Open" goes. */
export const ListedInstallationSchema = Type.Intersect([InstallationSchema, Type.Object({
  status: Type.Literal('ACTIVE'),
  app: ListedApp,
  hasSettings: Type.Boolean({ description: 'The app declares a settingsSchema' }),
  hasPreviousSetup: Type.Boolean({ description: 'The merchant had set the app up before uninstalling it: GET /merchant/installations/{id}/previous-setup says what can be restored' }),
  adminPages: Type.Array(AdminPageLinkSchema, { description: 'Active admin pages: sidebar items of the admin panel' })
})], { title: 'ListedInstallation' })
export type ListedInstallation = Static<typeof ListedInstallationSchema>

/** A consent the merchant gave whose code the app has not exchanged yet (PENDING, 10 minutes), or never did (EXPIRED). */
export const PendingInstallationSchema = Type.Object({
  status: StringEnum(['PENDING', 'EXPIRED'] as const),
  installationId: Type.Null({ description: 'None yet: the app has not exchanged the code' }),
  appId: Type.String(),
  businessId: Type.String(),
  app: ListedApp,
  requestedScopes: Type.Array(ScopeValue),
  consentedAt: Iso,
  expiresAt: Iso
}, { title: 'PendingInstallation' })
export type PendingInstallation = Static<typeof PendingInstallationSchema>

export const InstallationListSchema = Type.Object({
  data: Type.Array(Type.Union([ListedInstallationSchema, PendingInstallationSchema]), {
    description: 'Installed apps (status ACTIVE), newest first, then approved installs the app has not finished (code not exchanged: PENDING for 10 minutes, then EXPIRED for a day)'
  })
}, { title: 'InstallationList' })
export type InstallationList = Static<typeof InstallationListSchema>
