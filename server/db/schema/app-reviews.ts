import { pgTable, text, timestamp, smallint, index, uniqueIndex, check } from 'drizzle-orm/pg-core'
import { sql } from 'drizzle-orm'
import { apps } from './apps.ts'
import { businesses } from './commerce.ts'

const at = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' })

/**
 * A business's review of an app (DESIGN §24): one per business and app, its developer's single
 * answer, and a reviewer's hiding with its reason. Not the submission review's thread (app_review_replies).
 */
export const appReviews = pgTable('app_reviews', {
  id: text('id').primaryKey(),
  appId: text('app_id').notNull().references(() => apps.id, { onDelete: 'cascade' }),
  businessId: text('business_id').notNull().references(() => businesses.id, { onDelete: 'cascade' }),
  /** The signed-in user who wrote it last. */
  authorId: text('author_id').notNull(),
  rating: smallint('rating').notNull(),
  body: text('body').notNull().default(''),
  createdAt: at('created_at').notNull().defaultNow(),
  updatedAt: at('updated_at').notNull().defaultNow(),
  replyBody: text('reply_body'),
  replyCreatedAt: at('reply_created_at'),
  hiddenAt: at('hidden_at'),
  hiddenReason: text('hidden_reason'),
  hiddenBy: text('hidden_by')
}, (t) => [
  uniqueIndex('app_reviews_app_business_idx').on(t.appId, t.businessId),
  index('app_reviews_app_created_idx').on(t.appId, t.createdAt),
  check('app_reviews_rating_check', sql`${t.rating} between 1 and 5`)
])
