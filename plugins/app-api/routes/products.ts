import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { IdParams, Paginated, errorResponses } from '../../../server/schemas.ts'
import { getProduct, getProductBySlug, listProducts } from '../../merchant/products-service.ts'
import { ProductListQuerySchema, ProductSchema, SlugParams } from '../../merchant/schemas.ts'
import { SECURITY, TAGS, businessOf } from './common.ts'

const productRoutes: FastifyPluginAsyncTypebox = async (fastify) => {
  const preValidation = fastify.requireScope('read_products')

  fastify.get('/products', {
    preValidation,
    schema: {
      tags: TAGS,
      summary: 'List products, newest first, optionally of one category (read_products)',
      security: SECURITY,
      querystring: ProductListQuerySchema,
      response: { 200: Paginated(ProductSchema), ...errorResponses(400, 401, 403, 429) }
    }
  }, async (request) => await listProducts(fastify.db, businessOf(request), request.query))

  fastify.get('/products/:id', {
    preValidation,
    schema: {
      tags: TAGS,
      summary: 'Product by id (read_products)',
      security: SECURITY,
      params: IdParams,
      response: { 200: ProductSchema, ...errorResponses(400, 401, 403, 404, 429) }
    }
  }, async (request) => await getProduct(fastify.db, businessOf(request), request.params.id))

  fastify.get('/products/slug/:slug', {
    preValidation,
    schema: {
      tags: TAGS,
      summary: 'Product by slug (read_products)',
      security: SECURITY,
      params: SlugParams,
      response: { 200: ProductSchema, ...errorResponses(400, 401, 403, 404, 429) }
    }
  }, async (request) => await getProductBySlug(fastify.db, businessOf(request), request.params.slug))
}

export default productRoutes
