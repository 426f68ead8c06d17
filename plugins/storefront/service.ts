import { and, asc, desc, eq, type SQL } from 'drizzle-orm'
import { businesses, pages, products } from '../../server/db/schema/index.ts'
import type { Executor } from '../../server/db/client.ts'
import { notFound } from '../../server/http-errors.ts'
import { pageWindow } from '../../server/schemas.ts'
import { createReview } from '../commerce/reviews-service.ts'
import { PRODUCT_PAGE_LIMITS, type Review, type ReviewCreateBody } from '../commerce/schemas.ts'
import type { BusinessRow, PageRow, ProductRow } from '../commerce/serializers.ts'
import type { StoreProduct, StoreProductQuery } from './schemas.ts'
import { countRows } from '../../server/db/rows.ts'

/** The page `GET /store/:businessSlug` shows when it is published. */
export const HOME_SLUG = 'home'

export async function businessBySlug (executor: Executor, slug: string): Promise<BusinessRow | null> {
  const [row] = await executor.select().from(businesses).where(eq(businesses.slug, slug)).limit(1)
  return row ?? null
}

/** Published pages in creation order: the storefront's navigation. */
export async function publishedPages (executor: Executor, businessId: string): Promise<PageRow[]> {
  return await executor.select().from(pages)
    .where(and(eq(pages.businessId, businessId), eq(pages.isPublished, true)))
    .orderBy(asc(pages.createdAt), asc(pages.id))
}

/** Customers see available, ACTIVE products only. */
const visible = (businessId: string): SQL => and(eq(products.businessId, businessId), eq(products.isAvailable, true), eq(products.status, 'ACTIVE')) as SQL

export function storeProduct (row: ProductRow, currency: string): StoreProduct {
  return { id: row.id, name: row.name, slug: row.slug, description: row.description, price: row.price, currency, category: row.category, imageUrl: row.imageUrl }
}

export async function listStoreProducts (executor: Executor, business: BusinessRow, query: StoreProductQuery = {}) {
  const { page, limit, offset } = pageWindow(query, PRODUCT_PAGE_LIMITS)
  const where = query.category === undefined ? visible(business.id) : and(visible(business.id), eq(products.category, query.category))
  const total = await countRows(executor, products, where)
  const rows = await executor.select().from(products).where(where)
    .orderBy(desc(products.createdAt), asc(products.id)).limit(limit).offset(offset)
  return { data: rows.map((row) => storeProduct(row, business.currency)), total, page, limit }
}

/** A customer's review of a product this storefront shows (another business's product is a 404); emits review.created. */
export async function createStoreReview (executor: Executor, business: BusinessRow, input: ReviewCreateBody): Promise<Review> {
  const [product] = await executor.select({ id: products.id }).from(products)
    .where(and(eq(products.businessId, business.id), eq(products.id, input.productId), eq(products.status, 'ACTIVE'))).limit(1)
  if (product === undefined) throw notFound('Product')
  return await createReview(executor, business.id, input)
}
