import { Type, type Static } from '@sinclair/typebox'
import { PaginationQuery, type PageLimits } from '../../server/schemas.ts'
import { SyncQuery } from '../../sdk/src/contract/bulk-exports.ts'
import { BusinessSchema, IsoDate, MAX_DASHBOARD_DAYS, Money, OrderStatus, ProductStatus } from '../../sdk/src/contract/resources.ts'

// the resources the App API answers with are the contract's (sdk/src/contract/resources.ts; DESIGN §16)
export {
  BlockInstanceSchema, BusinessSchema, CustomerSchema, DashboardSchema, DeliveryMethod, MAX_DASHBOARD_DAYS, OrderItemSchema, OrderSchema, OrderStatus,
  PageSchema, PaymentStatus, ProductSchema, ProductStatus, ReviewSchema, ReviewStatsSchema, GuestOrderBodySchema, PRODUCT_STATUSES, DELIVERY_METHODS,
  ORDER_TRANSITIONS,
  type GuestOrderBody,
  type Business, type Dashboard, type Order, type Page, type Product, type Review, type ReviewStats
} from '../../sdk/src/contract/resources.ts'

/** Page sizes (spec Limits; DESIGN §5): the App API reuses them. */
export const PRODUCT_PAGE_LIMITS: PageLimits = { defaultLimit: 50, maxLimit: 100 }
export const ORDER_PAGE_LIMITS: PageLimits = { defaultLimit: 20, maxLimit: 50 }
export const REVIEW_PAGE_LIMITS: PageLimits = { defaultLimit: 10, maxLimit: 50 }
export const PAGE_PAGE_LIMITS: PageLimits = { defaultLimit: 20, maxLimit: 100 }
export const PROMO_CODE_PAGE_LIMITS: PageLimits = { defaultLimit: 20, maxLimit: 100 }

export const BUILT_IN_PAYMENT_METHODS = ['CASH', 'CARD'] as const

const Slug = Type.String({ minLength: 1, maxLength: 64, pattern: '^[a-z0-9]+(?:-[a-z0-9]+)*$', description: 'Lowercase letters, digits and dashes' })

// ---- products

const productFields = {
  name: Type.String({ minLength: 1, maxLength: 200 }),
  description: Type.String({ maxLength: 5000 }),
  price: Money('Price'),
  category: Type.String({ maxLength: 100 }),
  isAvailable: Type.Boolean(),
  imageUrl: Type.String({ maxLength: 2048 }),
  slug: Slug,
  status: ProductStatus,
  stock: Type.Integer({ minimum: 0, maximum: 1_000_000 }),
  lowStockThreshold: Type.Integer({ minimum: 0, maximum: 1_000_000 })
}

export const ProductCreateBodySchema = Type.Object({
  name: productFields.name,
  price: productFields.price,
  description: Type.Optional(productFields.description),
  category: Type.Optional(productFields.category),
  isAvailable: Type.Optional(productFields.isAvailable),
  imageUrl: Type.Optional(productFields.imageUrl),
  slug: Type.Optional({ ...productFields.slug, description: 'Defaults to a slug of the name' }),
  status: Type.Optional(productFields.status),
  stock: Type.Optional(productFields.stock),
  lowStockThreshold: Type.Optional(productFields.lowStockThreshold)
}, { title: 'CreateProductBody', additionalProperties: false })
export type ProductCreateBody = Static<typeof ProductCreateBodySchema>

export const ProductPatchBodySchema = Type.Partial(Type.Object(productFields), { title: 'UpdateProductBody', additionalProperties: false, minProperties: 1 })
export type ProductPatchBody = Static<typeof ProductPatchBodySchema>

export const ProductListQuerySchema = Type.Composite([
  PaginationQuery(PRODUCT_PAGE_LIMITS),
  Type.Object({ category: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })), ...SyncQuery })
], { additionalProperties: false })

/** The merchant's list adds a name search, a status filter and the low-stock view (the App API keeps the plain list). */
export const MerchantProductListQuerySchema = Type.Composite([
  PaginationQuery(PRODUCT_PAGE_LIMITS),
  Type.Object({
    category: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
    q: Type.Optional(Type.String({ maxLength: 100, description: 'Part of the name, any case' })),
    status: Type.Optional(ProductStatus),
    lowStock: Type.Optional(Type.Boolean({ description: 'Only products whose stock is at or below their low-stock threshold' }))
  })
], { additionalProperties: false })

/** The picture upload, for the document: the handler reads the stream (request.file()), so nothing validates a body. */
export const ProductImageUploadBodySchema = Type.Unknown({
  documentedAs: Type.Object({
    file: Type.String({ format: 'binary', contentMediaType: 'application/octet-stream', description: 'PNG, JPEG or WebP, at most 1 MB' })
  }, { title: 'ProductImageUpload' })
})

// ---- orders

export const OrderListQuerySchema = Type.Composite([
  PaginationQuery(ORDER_PAGE_LIMITS),
  Type.Object({ status: Type.Optional(OrderStatus), ...SyncQuery })
], { additionalProperties: false })

export const MerchantOrderListQuerySchema = Type.Composite([
  PaginationQuery(ORDER_PAGE_LIMITS),
  Type.Object({
    status: Type.Optional(OrderStatus),
    number: Type.Optional(Type.String({ maxLength: 20, description: 'An order number (a leading # is ignored): the order with it, if any' }))
  })
], { additionalProperties: false })

const HookPointName = Type.String({ description: 'checkout.payment_methods, checkout.shipping_rates, order.calculate_discounts, order.validate or checkout.create_payment' })

/** What the apps did in the checkout that placed an order: the merchant's order detail. */
export const OrderCheckoutSchema = Type.Object({
  paymentMethod: Type.Object({
    id: Type.String({ description: 'As on the order: CASH, CARD, or <installationId>:<method id> for an app method' }),
    provider: Type.Union([Type.Literal('platform'), Type.Literal('app')]),
    methodId: Type.String({ description: "The method's own id (the app's, for an app method)" }),
    appId: Type.Union([Type.String(), Type.Null()]),
    appName: Type.Union([Type.String(), Type.Null()], { description: 'The app that supplied the method; null for a built-in one, or when the app is gone' })
  }),
  discounts: Type.Array(Type.Object({
    appId: Type.String(),
    appName: Type.Union([Type.String(), Type.Null()]),
    amount: Money('Discount'),
    reason: Type.Union([Type.String(), Type.Null()])
  }), { description: "Each app's discount (order.calculate_discounts) with its reason; the order's discount is their sum, capped at the subtotal" }),
  hookCalls: Type.Array(Type.Object({
    id: Type.String(),
    hookPoint: HookPointName,
    appId: Type.String(),
    appName: Type.Union([Type.String(), Type.Null()]),
    success: Type.Boolean(),
    statusCode: Type.Union([Type.Integer(), Type.Null()]),
    durationMs: Type.Integer(),
    error: Type.Union([Type.String(), Type.Null()]),
    answer: Type.Unknown({ description: "The app's answer as JSON, or null when none came or it was not JSON" }),
    policyApplied: Type.Union([Type.String(), Type.Null()], { description: 'What the checkout did about a failed call' }),
    createdAt: Type.String({ format: 'date-time' })
  }), { description: 'Every hook call of the checkout, in call order; kept as long as the hook call log (DELIVERY_LOG_RETENTION_DAYS)' })
}, { title: 'OrderCheckout' })
export type OrderCheckout = Static<typeof OrderCheckoutSchema>

export const OrderStatusBodySchema = Type.Object({ status: OrderStatus }, { title: 'OrderStatusBody', additionalProperties: false })

// ---- reviews

export const ReviewCreateBodySchema = Type.Object({
  productId: Type.String({ minLength: 1, maxLength: 64 }),
  rating: Type.Integer({ minimum: 1, maximum: 5 }),
  text: Type.Optional(Type.String({ maxLength: 5000 })),
  authorName: Type.String({ minLength: 1, maxLength: 100 })
}, { title: 'CreateReviewBody', additionalProperties: false })
export type ReviewCreateBody = Static<typeof ReviewCreateBodySchema>

export const ReviewListQuerySchema = Type.Composite([
  PaginationQuery(REVIEW_PAGE_LIMITS),
  Type.Object({ productId: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })), ...SyncQuery })
], { additionalProperties: false })

// ---- pages

export const PageCreateBodySchema = Type.Object({
  slug: Slug,
  title: Type.String({ minLength: 1, maxLength: 200 }),
  isPublished: Type.Optional(Type.Boolean())
}, { title: 'CreatePageBody', additionalProperties: false })
export type PageCreateBody = Static<typeof PageCreateBodySchema>

export const PagePatchBodySchema = Type.Object({
  slug: Type.Optional(Slug),
  title: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
  isPublished: Type.Optional(Type.Boolean())
}, { title: 'UpdatePageBody', additionalProperties: false, minProperties: 1 })
export type PagePatchBody = Static<typeof PagePatchBodySchema>

export const SlugParams = Type.Object({ slug: Slug })
export const PageListQuerySchema = Type.Composite([PaginationQuery(PAGE_PAGE_LIMITS)], { additionalProperties: false })

// ---- business

/** The merchant's view adds where the store is: the SPA never builds storefront URLs itself (DESIGN §14). */
export const MerchantBusinessSchema = Type.Object({
  ...BusinessSchema.properties,
  storefrontUrl: Type.String({ description: "The store's home page on the storefront origin", examples: ['https://rosa.shops.example/store/rosa'] })
})

export const BusinessPatchBodySchema = Type.Object({
  name: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
  type: Type.Optional(Type.String({ minLength: 1, maxLength: 50, pattern: '^[A-Z][A-Z0-9_]*$', description: 'For example RESTAURANT, RETAIL' })),
  address: Type.Optional(Type.String({ maxLength: 500 })),
  currency: Type.Optional(Type.String({ pattern: '^[A-Z]{3}$', description: 'ISO 4217 code' })),
  locale: Type.Optional(Type.String({ minLength: 2, maxLength: 35, pattern: '^[a-zA-Z]{2,3}(-[a-zA-Z0-9]{2,8})*$', description: 'BCP 47 tag' })),
  timezone: Type.Optional(Type.String({ minLength: 1, maxLength: 64, description: 'IANA time zone, for example Europe/Paris' })),
  email: Type.Optional(Type.Union([Type.String({ format: 'email', maxLength: 254 }), Type.Literal('')])),
  phone: Type.Optional(Type.String({ maxLength: 40 }))
}, { title: 'UpdateBusinessBody', additionalProperties: false, minProperties: 1 })
export type BusinessPatchBody = Static<typeof BusinessPatchBodySchema>

// ---- analytics

export const DashboardQuerySchema = Type.Object({
  from: Type.Optional({ ...IsoDate, description: `First day (inclusive); default 29 days before \`to\`; the period spans at most ${MAX_DASHBOARD_DAYS} days` }),
  to: Type.Optional({ ...IsoDate, description: 'Last day (inclusive); default today' })
}, { additionalProperties: false })
export type DashboardQuery = Static<typeof DashboardQuerySchema>

// ---- promo codes

const PromoCodeValue = Type.String({ minLength: 3, maxLength: 32, pattern: '^[A-Za-z0-9_-]+$', description: 'Letters, digits, _ and -; any case (stored and matched upper case)', examples: ['SPRING10'] })
const promoFields = {
  percentOff: Type.Integer({ minimum: 1, maximum: 100, description: 'Percent off the subtotal (rounded down to a minor unit); give this or amountOff' }),
  amountOff: Money('Amount off the subtotal; give this or percentOff'),
  minSubtotal: Type.Union([Money('The smallest subtotal the code applies to'), Type.Null()]),
  active: Type.Boolean(),
  expiresAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], { description: 'The code stops working at this time; null never' })
}

export const PromoCodeSchema = Type.Object({
  id: Type.String(),
  code: Type.String({ examples: ['SPRING10'] }),
  percentOff: Type.Union([promoFields.percentOff, Type.Null()]),
  amountOff: Type.Union([promoFields.amountOff, Type.Null()]),
  minSubtotal: promoFields.minSubtotal,
  active: promoFields.active,
  expiresAt: promoFields.expiresAt,
  createdAt: Type.String({ format: 'date-time' }),
  updatedAt: Type.String({ format: 'date-time' })
}, { title: 'PromoCode' })
export type PromoCode = Static<typeof PromoCodeSchema>

const promoCreateFields = {
  code: PromoCodeValue,
  percentOff: Type.Optional(promoFields.percentOff),
  amountOff: Type.Optional({ ...promoFields.amountOff, minimum: 1 }),
  minSubtotal: Type.Optional(promoFields.minSubtotal),
  active: Type.Optional(promoFields.active),
  expiresAt: Type.Optional(promoFields.expiresAt)
}
/** Exactly one of percentOff and amountOff: the service checks it (promo_code_discount_invalid), the document says it as `oneOf`. */
const EXACTLY_ONE_DISCOUNT = [{ required: ['percentOff'] }, { required: ['amountOff'] }]
export const PromoCodeCreateBodySchema = Type.Object(promoCreateFields, {
  title: 'CreatePromoCodeBody',
  additionalProperties: false,
  documentedAs: Type.Object(promoCreateFields, { title: 'CreatePromoCodeBody', additionalProperties: false, oneOf: EXACTLY_ONE_DISCOUNT })
})
export type PromoCodeCreateBody = Static<typeof PromoCodeCreateBodySchema>

const promoPatchFields = {
  code: Type.Optional(PromoCodeValue),
  percentOff: Type.Optional(Type.Union([promoFields.percentOff, Type.Null()])),
  amountOff: Type.Optional(Type.Union([{ ...promoFields.amountOff, minimum: 1 }, Type.Null()])),
  minSubtotal: Type.Optional(promoFields.minSubtotal),
  active: Type.Optional(promoFields.active),
  expiresAt: Type.Optional(promoFields.expiresAt)
}
const BOTH_DISCOUNTS = (type: 'integer' | 'null') => ({ properties: { percentOff: { type }, amountOff: { type } }, required: ['percentOff', 'amountOff'] })
/**
 * Switching kind: send the new one and null for the other. The code keeps exactly one of the two
 * on the record; what a patch alone can break (both set, both null) the document refuses with `not`.
 */
export const PromoCodePatchBodySchema = Type.Object(promoPatchFields, {
  title: 'UpdatePromoCodeBody',
  additionalProperties: false,
  minProperties: 1,
  documentedAs: Type.Object(promoPatchFields, {
    title: 'UpdatePromoCodeBody', additionalProperties: false, minProperties: 1, not: { anyOf: [BOTH_DISCOUNTS('integer'), BOTH_DISCOUNTS('null')] }
  })
})
export type PromoCodePatchBody = Static<typeof PromoCodePatchBodySchema>

export const PromoCodeListQuerySchema = Type.Composite([PaginationQuery(PROMO_CODE_PAGE_LIMITS)], { additionalProperties: false })

// ---- merchant: page blocks (each block checked by installations, which knows the installed apps' blocks)

/** At most this many block instances on one page. */
export const MAX_PAGE_BLOCKS = 50
const BlockId = Type.String({ minLength: 1, maxLength: 64, pattern: '^[A-Za-z0-9_-]+$', description: 'Kept when sent; generated when omitted' })
const BlockSettings = Type.Record(Type.String(), Type.Unknown(), { description: 'Validated against the block’s settingsSchema; the block’s defaultConfig when omitted' })

export const PageBlocksBodySchema = Type.Object({
  blocks: Type.Array(Type.Object({
    id: Type.Optional(BlockId),
    installationId: Type.String({ minLength: 1, maxLength: 64 }),
    blockType: Type.String({ minLength: 1, maxLength: 64 }),
    settings: Type.Optional(BlockSettings)
  }, { additionalProperties: false }), { maxItems: MAX_PAGE_BLOCKS, description: 'The page’s blocks, in display order' })
}, { title: 'PageBlocksBody', additionalProperties: false })
export type PageBlocksBody = Static<typeof PageBlocksBodySchema>
