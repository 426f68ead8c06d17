import { and, eq, sql } from 'drizzle-orm'
import { products, reviews } from '../../server/db/schema/index.ts'
import type { Executor } from '../../server/db/client.ts'
import { newId } from '../../server/db/ids.ts'
import { emitEvent } from '../../server/events.ts'
import { recordActivity } from '../../server/activity.ts'
import { notFound, unprocessable } from './errors.ts'
import { pageWindow } from '../../server/schemas.ts'
import { REVIEW_PAGE_LIMITS, type Review, type ReviewCreateBody, type ReviewStats } from './schemas.ts'
import { serializeReview } from './serializers.ts'
import { businessPage, rows, type KeptTotal } from '../../server/db/rows.ts'
import { syncPage, type SyncQuery } from './sync.ts'

/** The review list's total: the business's (product '') or one product's reviews of every rating, kept by the database (review_counts). */
const REVIEW_TOTAL: KeptTotal = (businessId, productId) => sql`(select coalesce(sum(n), 0) from review_counts
  where business_id = ${businessId}::text and product_id = ${productId === undefined ? '' : sql`${productId}::text`})`

export interface ReviewListQuery { page?: number, limit?: number, productId?: string }

export async function listReviews (executor: Executor, businessId: string, query: ReviewListQuery = {}) {
  const { page, limit, offset } = pageWindow(query, REVIEW_PAGE_LIMITS)
  const { rows, total } = await businessPage(executor, reviews, 'reviews_page', businessId, { limit, offset },
    query.productId === undefined ? undefined : { name: 'product', column: reviews.productId, value: query.productId }, REVIEW_TOTAL)
  return { data: rows.map((row) => serializeReview(row)), total, page, limit }
}

/** The business's reviews changed since a time, oldest change first (cursor mode, DESIGN §25), optionally of one product. */
export async function syncReviews (executor: Executor, businessId: string, query: SyncQuery & { productId?: string }, settleSeconds: number) {
  const { rows, limit, nextCursor } = await syncPage(executor, reviews, businessId, query, REVIEW_PAGE_LIMITS, settleSeconds,
    { name: 'productId', column: reviews.productId, value: query.productId })
  return { data: rows.map((row) => serializeReview(row)), limit, nextCursor }
}

export async function getReview (executor: Executor, businessId: string, id: string): Promise<Review> {
  const [row] = await executor.select().from(reviews).where(and(eq(reviews.businessId, businessId), eq(reviews.id, id))).limit(1)
  if (row === undefined) throw notFound('review_not_found', 'Review')
  return serializeReview(row)
}

/** A customer's review of a product of this business (storefront); emits review.created. */
export async function createReview (executor: Executor, businessId: string, input: ReviewCreateBody): Promise<Review> {
  return await executor.transaction(async (tx) => {
    const [product] = await tx.select({ id: products.id }).from(products)
      .where(and(eq(products.businessId, businessId), eq(products.id, input.productId))).limit(1)
    if (product === undefined) throw unprocessable('review_product_not_found', `Product ${input.productId} does not exist`, { productId: input.productId })
    const [row] = await tx.insert(reviews).values({
      id: newId('rev'), businessId, productId: product.id, rating: input.rating, text: input.text?.trim() ?? '', authorName: input.authorName.trim()
    }).returning()
    const review = serializeReview(row)
    await emitEvent(tx, { businessId, event: 'review.created', data: review })
    await recordActivity(tx, {
      businessId, action: 'review.created', resource: { type: 'review', id: row.id },
      changes: { productId: row.productId, rating: row.rating }, customer: { id: null, name: row.authorName }
    })
    return review
  })
}

export async function deleteReview (executor: Executor, businessId: string, id: string): Promise<Review> {
  return await executor.transaction(async (tx) => {
    const [row] = await tx.delete(reviews).where(and(eq(reviews.businessId, businessId), eq(reviews.id, id))).returning()
    if (row === undefined) throw notFound('review_not_found', 'Review')
    const review = serializeReview(row)
    await emitEvent(tx, { businessId, event: 'review.deleted', data: review })
    await recordActivity(tx, { businessId, action: 'review.deleted', resource: { type: 'review', id }, changes: { productId: row.productId, rating: row.rating, authorName: row.authorName } })
    return review
  })
}

/**
 * Average (2 decimals), count and the 1–5 distribution; optionally for one product. Read from the five
 * counts the database keeps per rating (review_counts), however many reviews there are.
 */
export async function reviewStats (executor: Executor, businessId: string, productId?: string): Promise<ReviewStats> {
  const counted = await rows(executor, sql<{ rating: number, n: string, average: string | null }>`
    select rating, n::text as n, round(sum(rating * n) over () / nullif(sum(n) over (), 0), 2)::text as average
    from review_counts where business_id = ${businessId} and product_id = ${productId ?? ''}`)
  const distribution = { 1: 0, 2: 0, 3: 0, 4: 0, 5: 0 }
  for (const row of counted) distribution[row.rating as 1 | 2 | 3 | 4 | 5] = Number(row.n)
  const totalReviews = Object.values(distribution).reduce((sum, n) => sum + n, 0)
  const average = counted[0]?.average ?? null
  return { averageRating: average === null ? 0 : Number(average), totalReviews, distribution }
}
