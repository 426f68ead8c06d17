import { Type, type Static } from '@sinclair/typebox'
import { PaginationQuery } from '../../server/schemas.ts'
import { PRODUCT_PAGE_LIMITS } from '../commerce/schemas.ts'

// ---- customer API

export const StoreParams = Type.Object({ businessSlug: Type.String({ minLength: 1, maxLength: 100 }) })

export const StoreProductSchema = Type.Object({
  id: Type.String(),
  name: Type.String(),
  slug: Type.String(),
  description: Type.String(),
  price: Type.Integer({ minimum: 0, description: 'Integer minor units of `currency`' }),
  currency: Type.String({ examples: ['USD'] }),
  category: Type.String(),
  imageUrl: Type.String()
}, { title: 'StoreProduct', description: 'A product as customers see it: available and ACTIVE ones only, without stock figures' })
export type StoreProduct = Static<typeof StoreProductSchema>

export const StoreProductQuerySchema = Type.Composite([
  PaginationQuery(PRODUCT_PAGE_LIMITS),
  Type.Object({ category: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })) })
], { additionalProperties: false })
export type StoreProductQuery = Static<typeof StoreProductQuerySchema>
