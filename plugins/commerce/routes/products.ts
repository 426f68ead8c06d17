import { Type } from '@sinclair/typebox'
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { IdParams, Paginated, errorResponses } from '../../../server/schemas.ts'
import { ProductCreateBodySchema, ProductListQuerySchema, ProductPatchBodySchema, ProductSchema } from '../schemas.ts'
import { SECURITY, TAGS, businessOf } from './common.ts'

const productRoutes: FastifyPluginAsyncTypebox = async (fastify) => {
  const onRequest = fastify.requireMerchant

  fastify.get('/products', {
    onRequest,
    schema: {
      tags: TAGS,
      operationId: 'listMerchantProducts', summary: 'List your products, newest first',
      security: SECURITY,
      querystring: ProductListQuerySchema,
      response: { 200: Paginated(ProductSchema), ...errorResponses(400, 401, 403) }
    }
  }, async (request) => await fastify.commerce.listProducts(businessOf(request), request.query))

  fastify.post('/products', {
    onRequest,
    schema: {
      tags: TAGS,
      operationId: 'createMerchantProduct', summary: 'Create a product (emits product.created)',
      security: SECURITY,
      body: ProductCreateBodySchema,
      response: { 201: ProductSchema, ...errorResponses(400, 401, 403, 409) }
    }
  }, async (request, reply) => reply.code(201).send(await fastify.commerce.createProduct(businessOf(request), request.body)))

  fastify.get('/products/:id', {
    onRequest,
    schema: {
      tags: TAGS,
      operationId: 'getMerchantProduct', summary: 'One of your products',
      security: SECURITY,
      params: IdParams,
      response: { 200: ProductSchema, ...errorResponses(400, 401, 403, 404) }
    }
  }, async (request) => await fastify.commerce.getProduct(businessOf(request), request.params.id))

  fastify.patch('/products/:id', {
    onRequest,
    schema: {
      tags: TAGS,
      operationId: 'updateMerchantProduct', summary: 'Change a product (emits product.updated, and inventory events when stock crosses a threshold)',
      security: SECURITY,
      params: IdParams,
      body: ProductPatchBodySchema,
      response: { 200: ProductSchema, ...errorResponses(400, 401, 403, 404, 409) }
    }
  }, async (request) => await fastify.commerce.updateProduct(businessOf(request), request.params.id, request.body))

  fastify.delete('/products/:id', {
    onRequest,
    schema: {
      tags: TAGS,
      operationId: 'deleteMerchantProduct', summary: 'Delete a product and its reviews (emits product.deleted)',
      security: SECURITY,
      params: IdParams,
      response: { 204: Type.Null({ description: 'Deleted' }), ...errorResponses(400, 401, 403, 404) }
    }
  }, async (request, reply) => {
    await fastify.commerce.deleteProduct(businessOf(request), request.params.id)
    return reply.code(204).send(null)
  })
}

export default productRoutes
