import { and, asc, desc, eq, ilike, lte, sql, type SQL } from 'drizzle-orm'
import { products } from '../../server/db/schema/index.ts'
import type { Executor } from '../../server/db/client.ts'
import { newId } from '../../server/db/ids.ts'
import { emitEvent } from '../../server/events.ts'
import { changedFields, recordActivity } from '../../server/activity.ts'
import { conflict, notFound } from './errors.ts'
import { pageWindow } from '../../server/schemas.ts'
import { slugify } from './businesses.ts'
import { isUniqueViolation } from '../../server/db/rows.ts'
import { emitStockEvents } from './inventory.ts'
import { catalogChanged } from './catalog-cache.ts'
import { PRODUCT_PAGE_LIMITS, type Product, type ProductCreateBody, type ProductPatchBody } from './schemas.ts'
import { serializeProduct, type ProductRow } from './serializers.ts'
import { businessPage, countRows, listCountTotal } from '../../server/db/rows.ts'
import { databaseNow } from '../../server/clock.ts'
import { syncPage, type SyncQuery } from './sync.ts'

/** The product list's total, kept by the database per business and category (list_counts). */
const PRODUCT_TOTAL = listCountTotal('products', 'category')

export interface ProductListQuery { page?: number, limit?: number, category?: string }

export async function listProducts (executor: Executor, businessId: string, query: ProductListQuery = {}) {
  const { page, limit, offset } = pageWindow(query, PRODUCT_PAGE_LIMITS)
  // the hottest App API read that misses the catalogue cache
  const { rows, total } = await businessPage(executor, products, 'products_page', businessId, { limit, offset },
    query.category === undefined ? undefined : { name: 'category', column: products.category, value: query.category }, PRODUCT_TOTAL)
  return { data: rows.map((row) => serializeProduct(row)), total, page, limit }
}

/** The business's products changed since a time, oldest change first (cursor mode, DESIGN §25), optionally of one category. */
export async function syncProducts (executor: Executor, businessId: string, query: SyncQuery & { category?: string }, settleSeconds: number) {
  const { rows, limit, nextCursor } = await syncPage(executor, products, businessId, query, PRODUCT_PAGE_LIMITS, settleSeconds,
    { name: 'category', column: products.category, value: query.category })
  return { data: rows.map((row) => serializeProduct(row)), limit, nextCursor }
}

export interface ProductSearchQuery extends ProductListQuery { q?: string, status?: Product['status'], lowStock?: boolean }

/** `%`, `_` and `\` typed by a merchant match themselves. */
const likePattern = (text: string): string => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`

/**
 * The merchant's product list: by name (contains, any case), status, and stock at or below its
 * low-stock threshold; without any of them, the plain list.
 */
export async function searchProducts (executor: Executor, businessId: string, query: ProductSearchQuery = {}) {
  const q = query.q?.trim() ?? ''
  if (q === '' && query.status === undefined && query.lowStock !== true) return await listProducts(executor, businessId, query)
  const { page, limit, offset } = pageWindow(query, PRODUCT_PAGE_LIMITS)
  const filters: SQL[] = [eq(products.businessId, businessId)]
  if (q !== '') filters.push(ilike(products.name, likePattern(q)))
  if (query.status !== undefined) filters.push(eq(products.status, query.status))
  if (query.category !== undefined) filters.push(eq(products.category, query.category))
  if (query.lowStock === true) filters.push(lte(products.stock, products.lowStockThreshold))
  const where = and(...filters)
  const [rows, total] = await Promise.all([
    executor.select().from(products).where(where).orderBy(desc(products.createdAt), asc(products.id)).limit(limit).offset(offset),
    countRows(executor, products, where)
  ])
  return { data: rows.map((row) => serializeProduct(row)), total, page, limit }
}

async function findRow (executor: Executor, businessId: string, id: string, lock = false): Promise<ProductRow> {
  const query = executor.select().from(products).where(and(eq(products.businessId, businessId), eq(products.id, id))).limit(1)
  const [row] = lock ? await query.for('update') : await query
  if (row === undefined) throw notFound('product_not_found', 'Product')
  return row
}

export async function getProduct (executor: Executor, businessId: string, id: string): Promise<Product> {
  return serializeProduct(await findRow(executor, businessId, id))
}

export async function getProductBySlug (executor: Executor, businessId: string, slug: string): Promise<Product> {
  const [row] = await executor.select().from(products).where(and(eq(products.businessId, businessId), eq(products.slug, slug))).limit(1)
  if (row === undefined) throw notFound('product_not_found', 'Product')
  return serializeProduct(row)
}

/** `base`, `base-2`, … `base-20`, then a random suffix. */
async function freeSlug (executor: Executor, businessId: string, name: string): Promise<string> {
  const base = slugify(name)
  const taken = new Set((await executor.select({ slug: products.slug }).from(products)
    .where(and(eq(products.businessId, businessId), sql`${products.slug} like ${base + '%'}`))).map((row) => row.slug))
  for (let n = 1; n <= 20; n++) {
    const candidate = n === 1 ? base : `${base}-${n}`
    if (!taken.has(candidate)) return candidate
  }
  return `${base}-${newId('s').slice(2, 8)}`
}

const slugTaken = () => conflict('product_slug_taken', 'Another product of this business already has this slug')

/** Creates a product and emits product.created in the same transaction. */
export async function createProduct (executor: Executor, businessId: string, input: ProductCreateBody): Promise<Product> {
  try {
    return await executor.transaction(async (tx) => {
      const [row] = await tx.insert(products).values({
        id: newId('prod'),
        businessId,
        name: input.name.trim(),
        description: input.description ?? '',
        price: input.price,
        category: input.category ?? '',
        isAvailable: input.isAvailable ?? true,
        imageUrl: input.imageUrl ?? '',
        slug: input.slug ?? await freeSlug(tx, businessId, input.name),
        status: input.status ?? 'ACTIVE',
        stock: input.stock ?? 0,
        lowStockThreshold: input.lowStockThreshold ?? 5
      }).returning()
      const product = serializeProduct(row)
      await emitEvent(tx, { businessId, event: 'product.created', data: product })
      await recordActivity(tx, { businessId, action: 'product.created', resource: { type: 'product', id: row.id }, changes: { name: row.name, price: row.price, stock: row.stock } })
      await catalogChanged(tx, businessId)
      return product
    })
  } catch (error) {
    throw isUniqueViolation(error) ? slugTaken() : error
  }
}

/** Emits product.updated, plus an inventory event when the stock crosses a line. */
export async function updateProduct (executor: Executor, businessId: string, id: string, patch: ProductPatchBody): Promise<Product> {
  try {
    return await executor.transaction(async (tx) => {
      const before = await findRow(tx, businessId, id, true)
      const [row] = await tx.update(products).set({ ...patch, ...(patch.name !== undefined ? { name: patch.name.trim() } : {}), updatedAt: databaseNow() })
        .where(and(eq(products.businessId, businessId), eq(products.id, id))).returning()
      const product = serializeProduct(row)
      await recordActivity(tx, {
        businessId, action: 'product.updated', resource: { type: 'product', id },
        changes: changedFields(before as unknown as Record<string, unknown>, { ...patch, ...(patch.name !== undefined ? { name: row.name } : {}) })
      })
      await emitEvent(tx, { businessId, event: 'product.updated', data: product })
      await catalogChanged(tx, businessId)
      await emitStockEvents(tx, businessId, before.stock, { productId: row.id, name: row.name, stock: row.stock, threshold: row.lowStockThreshold })
      return product
    })
  } catch (error) {
    throw isUniqueViolation(error) ? slugTaken() : error
  }
}

/** Deletes the product (its reviews go with it) and emits product.deleted with its last state. */
export async function deleteProduct (executor: Executor, businessId: string, id: string): Promise<Product> {
  return await executor.transaction(async (tx) => {
    const [row] = await tx.delete(products).where(and(eq(products.businessId, businessId), eq(products.id, id))).returning()
    if (row === undefined) throw notFound('product_not_found', 'Product')
    const product = serializeProduct(row)
    await emitEvent(tx, { businessId, event: 'product.deleted', data: product })
    await recordActivity(tx, { businessId, action: 'product.deleted', resource: { type: 'product', id }, changes: { name: row.name } })
    await catalogChanged(tx, businessId)
    return product
  })
}
