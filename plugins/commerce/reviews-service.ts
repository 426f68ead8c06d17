import { and, eq, sql, type SQL } from 'drizzle-orm'
import { products, reviews } from '../../server/db/schema/index.ts'
import type { Executor } from '../../server/db/client.ts'
import { newId } from '../../server/db/ids.ts'
import { emitEvent } from '../../server/events.ts'
import { notFound, unprocessable } from './errors.ts'
import { pageWindow } from '../../server/schemas.ts'
import { REVIEW_PAGE_LIMITS, type Review, type ReviewCreateBody, type ReviewStats } from './schemas.ts'
import { serializeReview } from './serializers.ts'
import { businessPage } from '../../server/db/rows.ts'

export interface ReviewListQuery { page?: number, limit?: number, productId?: string }

function reviewFilter (businessId: string, productId?: string): SQL | undefined {
  return productId === undefined ? eq(reviews.businessId, businessId) : and(eq(reviews.businessId, businessId), eq(reviews.productId, productId))
}

export async function listReviews (executor: Executor, businessId: string, query: ReviewListQuery = {}) {
  const { page, limit, offset } = pageWindow(query, REVIEW_PAGE_LIMITS)
  const { rows, total } = await businessPage(executor, reviews, 'reviews_page', businessId, { limit, offset },
    query.productId === undefined ? undefined : { name: 'product', column: reviews.productId, value: query.productId })
  return { data: rows.map((row) => serializeReview(row)), total, page, limit }
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
    return review
  })
}

export async function deleteReview (executor: Executor, businessId: string, id: string): Promise<Review> {
  return await executor.transaction(async (tx) => {
    const [row] = await tx.delete(reviews).where(and(eq(reviews.businessId, businessId), eq(reviews.id, id))).returning()
    if (row === undefined) throw notFound('review_not_found', 'Review')
    const review = serializeReview(row)
    await emitEvent(tx, { businessId, event: 'review.deleted', data: review })
    return review
  })
}

/** Average (2 decimals), count and the 1–5 distribution, computed in SQL; optionally for one product. */
export async function reviewStats (executor: Executor, businessId: string, productId?: string): Promise<ReviewStats> {
  const rows = await executor.select({ rating: reviews.rating, n: sql<number>`count(*)::int` })
    .from(reviews).where(reviewFilter(businessId, productId)).groupBy(reviews.rating)
  const [{ average }] = await executor.select({ average: sql<string | null>`round(avg(${reviews.rating}), 2)::text` })
    .from(reviews).where(reviewFilter(businessId, productId))
  const distribution = { 1: 0, 2: 0, 3: 0, 4: 0, 5: 0 }
  for (const row of rows) distribution[row.rating as 1 | 2 | 3 | 4 | 5] = row.n
  const totalReviews = rows.reduce((sum, row) => sum + row.n, 0)
  return { averageRating: average === null ? 0 : Number(average), totalReviews, distribution }
}
