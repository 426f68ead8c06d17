import type { ProductRow } from '../commerce/service.ts'
import type { StoreProduct } from './schemas.ts'

/** The page `GET /store/:businessSlug` shows when it is published. */
export const HOME_SLUG = 'home'

export function storeProduct (row: ProductRow, currency: string): StoreProduct {
  return {
    id: row.id, name: row.name, slug: row.slug, description: row.description, price: row.price, currency, category: row.category,
    imageUrl: row.imageUrl
  }
}

/** A page of the commerce catalogue as customers see it, in the store's currency. */
export function storeProductPage (page: { data: ProductRow[], total: number, page: number, limit: number }, currency: string) {
  return { ...page, data: page.data.map((row) => storeProduct(row, currency)) }
}
