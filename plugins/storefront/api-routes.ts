import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Paginated, errorResponses } from '../../server/schemas.ts'
import { notFound } from './errors.ts'
import { ReviewCreateBodySchema, ReviewSchema } from '../commerce/schemas.ts'
import { StoreParams, StoreProductQuerySchema, StoreProductSchema } from './schemas.ts'
import { storeProductPage } from './service.ts'
import { STOREFRONT_WRITE_LIMIT } from './rate-limit.ts'
import type { StorefrontNeeds } from './view.ts'

const tags = ['storefront']
const security: Array<Record<string, string[]>> = []

/** The public customer API of a storefront: no credentials, one business per slug. */
const storefrontApiRoutes: FastifyPluginAsyncTypebox<StorefrontNeeds> = async (fastify, { commerce, installations, checkoutHooks }) => {
  const business = async (slug: string) => {
    const row = await commerce.businessBySlug(slug)
    if (row === null) throw notFound('store_not_found', 'Store')
    return row
  }

  fastify.get('/:businessSlug/api/products', {
    schema: {
      tags, security,
      operationId: 'listStoreProducts', summary: 'Products customers can buy: available and ACTIVE, newest first', description: 'Public, on the storefront origin. Paginated envelope; `limit` above its maximum is clamped. An unknown store is a 404.',
      params: StoreParams,
      querystring: StoreProductQuerySchema,
      response: { 200: Paginated(StoreProductSchema), ...errorResponses(400, 404) }
    }
  }, async (request) => {
    const store = await business(request.params.businessSlug)
    return storeProductPage(await commerce.listVisibleProducts(store.id, request.query), store.currency)
  })

  fastify.post('/:businessSlug/api/reviews', {
    config: STOREFRONT_WRITE_LIMIT,
    schema: {
      tags, security,
      operationId: 'createStoreReview', summary: 'A customer reviews a product of this store (emits review.created)', description: 'Public, on the storefront origin. A rating 1–5 and a comment for an active product of this store; rate-limited per client address.',
      params: StoreParams,
      body: ReviewCreateBodySchema,
      response: { 201: ReviewSchema, ...errorResponses(400, 404, 429) }
    }
  }, async (request, reply) => reply.code(201).send(await commerce.createStoreReview((await business(request.params.businessSlug)).id, request.body)))
}

export default storefrontApiRoutes
