import { and, eq } from 'drizzle-orm'
import { productImages, products } from '../../server/db/schema/index.ts'
import type { Executor } from '../../server/db/client.ts'
import { newId } from '../../server/db/ids.ts'
import { emitEvent } from '../../server/events.ts'
import { recordActivity } from '../../server/activity.ts'
import { notFound } from './errors.ts'
import { catalogChanged } from './catalog-cache.ts'
import type { Product } from './schemas.ts'
import { serializeProduct } from './serializers.ts'
import { databaseNow } from '../../server/clock.ts'

/** Where an uploaded picture is served, on the API and the storefront origins (as all of /media). */
export const productImageUrl = (id: string): string => `/media/products/${id}`

/**
 * Stores a product's picture and points the product at it, replacing the one uploaded before;
 * emits product.updated. The bytes are an image the caller has already sniffed.
 */
export async function setProductImage (executor: Executor, businessId: string, productId: string, contentType: string, bytes: Buffer): Promise<Product> {
  return await executor.transaction(async (tx) => {
    const [owned] = await tx.select({ id: products.id }).from(products)
      .where(and(eq(products.businessId, businessId), eq(products.id, productId))).limit(1).for('update')
    if (owned === undefined) throw notFound('product_not_found', 'Product')
    await tx.delete(productImages).where(and(eq(productImages.businessId, businessId), eq(productImages.productId, productId)))
    const id = newId('img')
    await tx.insert(productImages).values({ id, businessId, productId, contentType, size: bytes.length, bytes })
    const [row] = await tx.update(products).set({ imageUrl: productImageUrl(id), updatedAt: databaseNow() })
      .where(and(eq(products.businessId, businessId), eq(products.id, productId))).returning()
    const product = serializeProduct(row)
    await emitEvent(tx, { businessId, event: 'product.updated', data: product })
    await recordActivity(tx, { businessId, action: 'product.image_changed', resource: { type: 'product', id: productId }, changes: { imageUrl: row.imageUrl } })
    await catalogChanged(tx, businessId)
    return product
  })
}

export async function productImageById (executor: Executor, id: string) {
  const [row] = await executor.select({ contentType: productImages.contentType, bytes: productImages.bytes })
    .from(productImages).where(eq(productImages.id, id)).limit(1)
  return row ?? null
}
