import type { FastifyReply } from 'fastify'
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { IdParams, Paginated, errorResponses, pageWindow } from '../../../server/schemas.ts'
import { PRODUCT_PAGE_LIMITS, ProductListQuerySchema, ProductSchema, SlugParams } from '../../commerce/schemas.ts'
import { SECURITY, TAGS, businessOf } from './common.ts'

const JSON_TYPE = 'application/json; charset=utf-8'

/**
 * Product reads are answered from the catalogue cache (plugins/merchant/catalog-cache.ts): the body
 * is serialized once with the route's response schema and kept until the business's products change.
 */
const productRoutes: FastifyPluginAsyncTypebox = async (fastify) => {
  const preValidation = fastify.requireScope('read_products')
  const cached = async (reply: FastifyReply, businessId: string, key: string, load: () => Promise<unknown>) =>
    await reply.type(JSON_TYPE).send(await fastify.catalogCache.read(businessId, key, async () => String(reply.serialize(await load()))))

  fastify.get('/products', {
    preValidation,
    schema: {
      tags: TAGS,
      operationId: 'listProducts', summary: 'List products, newest first, optionally of one category (read_products)', description: 'The token\'s business only. Paginated envelope; `limit` above its maximum is clamped.',
      security: SECURITY,
      querystring: ProductListQuerySchema,
      response: { 200: Paginated(ProductSchema), ...errorResponses(400, 401, 403, 429) }
    }
  }, async (request, reply) => {
    const { page, limit } = pageWindow(request.query, PRODUCT_PAGE_LIMITS)
    const { category } = request.query
    return await cached(reply, businessOf(request), `list:${page}:${limit}:${category ?? ''}`,
      async () => await fastify.commerce.listProducts(businessOf(request), { page, limit, category }))
  })

  fastify.get('/products/:id', {
    preValidation,
    schema: {
      tags: TAGS,
      operationId: 'getProduct', summary: 'Product by id (read_products)', description: 'The token\'s business only: another business\'s product is a 404.',
      security: SECURITY,
      params: IdParams,
      response: { 200: ProductSchema, ...errorResponses(400, 401, 403, 404, 429) }
    }
  }, async (request, reply) => await cached(reply, businessOf(request), `id:${request.params.id}`,
    async () => await fastify.commerce.getProduct(businessOf(request), request.params.id)))

  fastify.get('/products/slug/:slug', {
    preValidation,
    schema: {
      tags: TAGS,
      operationId: 'getProductBySlug', summary: 'Product by slug (read_products)', description: 'The token\'s business only: a slug of another business is a 404.',
      security: SECURITY,
      params: SlugParams,
      response: { 200: ProductSchema, ...errorResponses(400, 401, 403, 404, 429) }
    }
  }, async (request, reply) => await cached(reply, businessOf(request), `slug:${request.params.slug}`,
    async () => await fastify.commerce.getProductBySlug(businessOf(request), request.params.slug)))
}

export default productRoutes
