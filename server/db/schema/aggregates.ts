import { pgTable, text, integer, bigint, date, primaryKey } from 'drizzle-orm/pg-core'
import { businesses } from './commerce.ts'

/*
 * Figures kept up to date by the database itself (triggers of migration 0013_aggregates, in the same
 * transaction as the change of the row they count), so a list's total, the review stats and the
 * dashboard read a few rows however many orders and reviews a business has (#28 item 7). Nothing in
 * TypeScript writes these tables; a business's rows go with it (cascade).
 */

/**
 * How many rows a business's list holds: `key` '' is the whole list, `<column>:<value>` the list
 * narrowed by one filter (orders by `status:`, products by `category:`). The App API envelope's total.
 */
export const listCounts = pgTable('list_counts', {
  businessId: text('business_id').notNull().references(() => businesses.id, { onDelete: 'cascade' }),
  list: text('list').notNull(),
  key: text('key').notNull(),
  n: bigint('n', { mode: 'number' }).notNull()
}, (t) => [primaryKey({ columns: [t.businessId, t.list, t.key] })])

/** Reviews per rating, of one product (`product_id`) or of the whole business (`product_id` ''): review stats and the review list's totals. */
export const reviewCounts = pgTable('review_counts', {
  businessId: text('business_id').notNull().references(() => businesses.id, { onDelete: 'cascade' }),
  productId: text('product_id').notNull(),
  rating: integer('rating').notNull(),
  n: bigint('n', { mode: 'number' }).notNull()
}, (t) => [primaryKey({ columns: [t.businessId, t.productId, t.rating] })])

/**
 * Orders and their amounts per day (in the business's time zone) and status: the dashboard's figures.
 * A change of the business's time zone rebuilds the business's days.
 */
export const orderDays = pgTable('order_days', {
  businessId: text('business_id').notNull().references(() => businesses.id, { onDelete: 'cascade' }),
  day: date('day', { mode: 'string' }).notNull(),
  status: text('status').notNull(),
  orders: bigint('orders', { mode: 'number' }).notNull(),
  revenue: bigint('revenue', { mode: 'number' }).notNull()
}, (t) => [primaryKey({ columns: [t.businessId, t.day, t.status] })])

/** What each product sold per day (orders not cancelled): the dashboard's top products. `name` is the greatest name it was sold under. */
export const productDays = pgTable('product_days', {
  businessId: text('business_id').notNull().references(() => businesses.id, { onDelete: 'cascade' }),
  day: date('day', { mode: 'string' }).notNull(),
  productId: text('product_id').notNull(),
  name: text('name').notNull(),
  quantity: bigint('quantity', { mode: 'number' }).notNull(),
  revenue: bigint('revenue', { mode: 'number' }).notNull()
}, (t) => [primaryKey({ columns: [t.businessId, t.day, t.productId] })])
