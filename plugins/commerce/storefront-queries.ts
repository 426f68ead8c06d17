import { and, asc, desc, eq, type SQL } from 'drizzle-orm'
import { businesses, products } from '../../server/db/schema/index.ts'
import type { Executor } from '../../server/db/client.ts'
import { notFound } from './errors.ts'
import { pageWindow } from '../../server/schemas.ts'
import { createReview } from './reviews-service.ts'
import { PRODUCT_PAGE_LIMITS, type Review, type ReviewCreateBody } from './schemas.ts'
import type { BusinessRow, ProductRow } from './serializers.ts'
import { countRows } from '../../server/db/rows.ts'

/** What the public storefront reads and writes of a business's commerce data. */

export async function businessBySlug (executor: Executor, slug: string): Promise<BusinessRow | null> {
  const [row] = await executor.select().from(businesses).where(eq(businesses.slug, slug)).limit(1)
  return row ?? null
}

/** Customers see available, ACTIVE products only. */
const visible = (businessId: string): SQL => and(eq(products.businessId, businessId), eq(products.isAvailable, true), eq(products.status, 'ACTIVE')) as SQL

export async function listVisibleProducts (executor: Executor, businessId: string, query: { page?: number, limit?: number, category?: string } = {}) {
  const { page, limit, offset } = pageWindow(query, PRODUCT_PAGE_LIMITS)
  const where = query.category === undefined ? visible(businessId) : and(visible(businessId), eq(products.category, query.category))
  const total = await countRows(executor, products, where)
  const data: ProductRow[] = await executor.select().from(products).where(where)
    .orderBy(desc(products.createdAt), asc(products.id)).limit(limit).offset(offset)
  return { data, total, page, limit }
}

/** A customer's review of a product this storefront shows (another business's product is a 404); emits review.created. */
export async function createStoreReview (executor: Executor, businessId: string, input: ReviewCreateBody): Promise<Review> {
  const [product] = await executor.select({ id: products.id }).from(products)
    .where(and(eq(products.businessId, businessId), eq(products.id, input.productId), eq(products.status, 'ACTIVE'))).limit(1)
  if (product === undefined) throw notFound('product_not_found', 'Product')
  return await createReview(executor, businessId, input)
}
