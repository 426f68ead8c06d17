import { pgTable, text, timestamp, integer, boolean, jsonb, index, uniqueIndex, check, customType } from 'drizzle-orm/pg-core'
import { sql } from 'drizzle-orm'
import { ORDER_STATUSES, PAYMENT_STATUSES, PRODUCT_STATUSES, type BlockInstance, type Customer, type OrderItem } from '../../../sdk/src/contract/resources.ts'

const createdAt = () => timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow()
const updatedAt = () => timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow()

export const businesses = pgTable('businesses', {
  id: text('id').primaryKey(),
  name: text('name').notNull(),
  slug: text('slug').notNull().unique(),
  type: text('type').notNull().default('RESTAURANT'),
  address: text('address').notNull().default(''),
  currency: text('currency').notNull().default('USD'),
  locale: text('locale').notNull().default('en'),
  timezone: text('timezone').notNull().default('UTC'),
  email: text('email').notNull().default(''),
  phone: text('phone').notNull().default(''),
  ownerId: text('owner_id').notNull(),
  isSandbox: boolean('is_sandbox').notNull().default(false),
  /** Last order number handed out; incremented in the order's transaction. */
  lastOrderNumber: integer('last_order_number').notNull().default(1000),
  createdAt: createdAt(),
  updatedAt: updatedAt()
}, (t) => [index('businesses_owner_idx').on(t.ownerId)])

export const products = pgTable('products', {
  id: text('id').primaryKey(),
  businessId: text('business_id').notNull().references(() => businesses.id, { onDelete: 'cascade' }),
  name: text('name').notNull(),
  description: text('description').notNull().default(''),
  /** Minor units. */
  price: integer('price').notNull(),
  category: text('category').notNull().default(''),
  isAvailable: boolean('is_available').notNull().default(true),
  imageUrl: text('image_url').notNull().default(''),
  slug: text('slug').notNull(),
  status: text('status', { enum: PRODUCT_STATUSES }).notNull().default('ACTIVE'),
  stock: integer('stock').notNull().default(0),
  lowStockThreshold: integer('low_stock_threshold').notNull().default(5),
  createdAt: createdAt(),
  updatedAt: updatedAt()
}, (t) => [
  uniqueIndex('products_business_slug_idx').on(t.businessId, t.slug),
  // newest first, ties by id: the list's order, read forward (and index-only for a deep page's ids)
  index('products_business_created_idx').on(t.businessId, t.createdAt.desc().nullsFirst(), t.id),
  index('products_business_category_idx').on(t.businessId, t.category, t.createdAt.desc().nullsFirst(), t.id),
  // incremental sync (DESIGN §25): what changed since, oldest change first
  index('products_business_updated_idx').on(t.businessId, t.updatedAt, t.id),
  check('products_price_check', sql`${t.price} >= 0`),
  // A concurrent checkout can never sell stock that is not there
  check('products_stock_check', sql`${t.stock} >= 0`),
  check('products_threshold_check', sql`${t.lowStockThreshold} >= 0`)
])

// the status lists are the contract's (DESIGN §16 "Contract source")
export { ORDER_STATUSES, PAYMENT_STATUSES }
export type OrderStatus = typeof ORDER_STATUSES[number]
export type PaymentStatus = typeof PAYMENT_STATUSES[number]

// the JSON columns hold the contract's shapes (sdk/src/contract/resources.ts)
export type { BlockInstance, Customer, OrderItem }

/** A block an uninstall took off a page, and where it stood (0-based), so a reinstall can put it back. */
export interface RemovedBlock { pageId: string, slug: string, position: number, block: BlockInstance }

export const orders = pgTable('orders', {
  id: text('id').primaryKey(),
  businessId: text('business_id').notNull().references(() => businesses.id, { onDelete: 'cascade' }),
  orderNumber: text('order_number').notNull(),
  status: text('status', { enum: ORDER_STATUSES }).notNull().default('PENDING'),
  items: jsonb('items').$type<OrderItem[]>().notNull(),
  subtotal: integer('subtotal').notNull(),
  deliveryFee: integer('delivery_fee').notNull().default(0),
  discount: integer('discount').notNull().default(0),
  amount: integer('amount').notNull(),
  currency: text('currency').notNull(),
  deliveryMethod: text('delivery_method').notNull(),
  paymentMethod: text('payment_method').notNull(),
  paymentStatus: text('payment_status', { enum: PAYMENT_STATUSES }).notNull().default('PENDING'),
  /** Set when the order is paid with an app-provided method (checkout.payment_methods). */
  paymentMethodId: text('payment_method_id'),
  /** From the app's checkout.create_payment answer. */
  paymentInvoiceId: text('payment_invoice_id'),
  paymentExpiresAt: timestamp('payment_expires_at', { withTimezone: true, mode: 'date' }),
  isGuest: boolean('is_guest').notNull().default(true),
  customer: jsonb('customer').$type<Customer>().notNull(),
  address: text('address').notNull().default(''),
  locality: text('locality').notNull().default(''),
  /** The merchant's promo code the order used (as stored, upper case) and what it took off; part of `discount`. */
  promoCode: text('promo_code'),
  promoDiscount: integer('promo_discount').notNull().default(0),
  createdAt: createdAt(),
  updatedAt: updatedAt()
}, (t) => [
  uniqueIndex('orders_business_number_idx').on(t.businessId, t.orderNumber),
  // newest first, ties by id: the list's order, read forward (and index-only for a deep page's ids)
  index('orders_business_created_idx').on(t.businessId, t.createdAt.desc().nullsFirst(), t.id),
  index('orders_business_status_idx').on(t.businessId, t.status, t.createdAt.desc().nullsFirst(), t.id),
  // incremental sync (DESIGN §25): what changed since, oldest change first
  index('orders_business_updated_idx').on(t.businessId, t.updatedAt, t.id),
  index('orders_business_invoice_idx').on(t.businessId, t.paymentInvoiceId).where(sql`payment_invoice_id is not null`),
  check('orders_amounts_check', sql`${t.subtotal} >= 0 and ${t.deliveryFee} >= 0 and ${t.discount} >= 0 and ${t.amount} >= 0`),
  check('orders_promo_discount_check', sql`${t.promoDiscount} >= 0 and ${t.promoDiscount} <= ${t.discount}`)
])

/** A merchant's promo code: a percentage or a fixed amount off the subtotal, optionally from a minimum subtotal until an expiry. */
export const promoCodes = pgTable('promo_codes', {
  id: text('id').primaryKey(),
  businessId: text('business_id').notNull().references(() => businesses.id, { onDelete: 'cascade' }),
  /** Stored upper case, so a code is unique per business whatever case a shopper types. */
  code: text('code').notNull(),
  percentOff: integer('percent_off'),
  /** Minor units. */
  amountOff: integer('amount_off'),
  minSubtotal: integer('min_subtotal'),
  active: boolean('active').notNull().default(true),
  expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }),
  createdAt: createdAt(),
  updatedAt: updatedAt()
}, (t) => [
  uniqueIndex('promo_codes_business_code_idx').on(t.businessId, t.code),
  index('promo_codes_business_created_idx').on(t.businessId, t.createdAt, t.id),
  // exactly one kind of discount
  check('promo_codes_kind_check', sql`(${t.percentOff} is null) <> (${t.amountOff} is null)`),
  check('promo_codes_percent_check', sql`${t.percentOff} is null or ${t.percentOff} between 1 and 100`),
  check('promo_codes_amount_check', sql`${t.amountOff} is null or ${t.amountOff} > 0`),
  check('promo_codes_min_subtotal_check', sql`${t.minSubtotal} is null or ${t.minSubtotal} >= 0`)
])

export const reviews = pgTable('reviews', {
  id: text('id').primaryKey(),
  businessId: text('business_id').notNull().references(() => businesses.id, { onDelete: 'cascade' }),
  productId: text('product_id').notNull().references(() => products.id, { onDelete: 'cascade' }),
  rating: integer('rating').notNull(),
  text: text('text').notNull().default(''),
  authorName: text('author_name').notNull(),
  createdAt: createdAt(),
  updatedAt: updatedAt()
}, (t) => [
  // incremental sync (DESIGN §25): what changed since, oldest change first
  index('reviews_business_updated_idx').on(t.businessId, t.updatedAt, t.id),
  // newest first, ties by id: the list's order, read forward (and index-only for a deep page's ids)
  index('reviews_business_created_idx').on(t.businessId, t.createdAt.desc().nullsFirst(), t.id),
  index('reviews_business_product_idx').on(t.businessId, t.productId, t.createdAt.desc().nullsFirst(), t.id),
  check('reviews_rating_check', sql`${t.rating} between 1 and 5`)
])

export const pages = pgTable('pages', {
  id: text('id').primaryKey(),
  businessId: text('business_id').notNull().references(() => businesses.id, { onDelete: 'cascade' }),
  slug: text('slug').notNull(),
  title: text('title').notNull(),
  isPublished: boolean('is_published').notNull().default(true),
  blocks: jsonb('blocks').$type<BlockInstance[]>().notNull().default([]),
  createdAt: createdAt(),
  updatedAt: updatedAt()
}, (t) => [
  uniqueIndex('pages_business_slug_idx').on(t.businessId, t.slug),
  index('pages_business_created_idx').on(t.businessId, t.createdAt, t.id)
])

/** Binary data (pictures, export files), a Buffer in and out. */
export const bytea = customType<{ data: Buffer, driverData: Buffer | Uint8Array }>({
  dataType: () => 'bytea',
  fromDriver: (value) => Buffer.isBuffer(value) ? value : Buffer.from(value)
})

/** A product's uploaded picture (one per product), in the database so every process can serve it. */
export const productImages = pgTable('product_images', {
  id: text('id').primaryKey(),
  businessId: text('business_id').notNull().references(() => businesses.id, { onDelete: 'cascade' }),
  productId: text('product_id').notNull().references(() => products.id, { onDelete: 'cascade' }),
  contentType: text('content_type').notNull(),
  size: integer('size').notNull(),
  bytes: bytea('bytes').notNull(),
  createdAt: createdAt()
}, (t) => [index('product_images_product_idx').on(t.productId)])
