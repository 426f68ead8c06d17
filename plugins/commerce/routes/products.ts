import { Type } from '@sinclair/typebox'
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { IdParams, Paginated, errorResponses } from '../../../server/schemas.ts'
import multipart from '@fastify/multipart'
import { MerchantProductListQuerySchema, ProductCreateBodySchema, ProductImageUploadBodySchema, ProductPatchBodySchema, ProductSchema } from '../schemas.ts'
import { MAX_MEDIA_BYTES, sniffImage } from '../../../server/images.ts'
import { badRequest } from '../errors.ts'
import { SECURITY, TAGS, businessOf, type MerchantRouteOptions } from './common.ts'

const productRoutes: FastifyPluginAsyncTypebox<MerchantRouteOptions> = async (fastify, { commerce, guards }) => {
  const onRequest = guards.requireMerchant
  await fastify.register(multipart, { limits: { fileSize: MAX_MEDIA_BYTES, files: 1, fields: 0, parts: 1 } })

  fastify.get('/products', {
    config: { permission: 'products' },
    onRequest,
    schema: {
      tags: TAGS,
      operationId: 'listMerchantProducts', summary: 'List your products, newest first; search by name, filter by status or low stock',
      security: SECURITY,
      querystring: MerchantProductListQuerySchema,
      response: { 200: Paginated(ProductSchema), ...errorResponses(400, 401, 403) }
    }
  }, async (request) => await commerce.searchProducts(businessOf(request), request.query))

  fastify.post('/products', {
    config: { permission: 'products' },
    onRequest,
    schema: {
      tags: TAGS,
      operationId: 'createMerchantProduct', summary: 'Create a product (emits product.created)',
      security: SECURITY,
      body: ProductCreateBodySchema,
      response: { 201: ProductSchema, ...errorResponses(400, 401, 403, 409) }
    }
  }, async (request, reply) => reply.code(201).send(await commerce.createProduct(businessOf(request), request.body)))

  fastify.get('/products/:id', {
    config: { permission: 'products' },
    onRequest,
    schema: {
      tags: TAGS,
      operationId: 'getMerchantProduct', summary: 'One of your products',
      security: SECURITY,
      params: IdParams,
      response: { 200: ProductSchema, ...errorResponses(400, 401, 403, 404) }
    }
  }, async (request) => await commerce.getProduct(businessOf(request), request.params.id))

  fastify.patch('/products/:id', {
    config: { permission: 'products' },
    onRequest,
    schema: {
      tags: TAGS,
      operationId: 'updateMerchantProduct', summary: 'Change a product (emits product.updated, and inventory events when stock crosses a threshold)',
      security: SECURITY,
      params: IdParams,
      body: ProductPatchBodySchema,
      response: { 200: ProductSchema, ...errorResponses(400, 401, 403, 404, 409) }
    }
  }, async (request) => await commerce.updateProduct(businessOf(request), request.params.id, request.body))

  fastify.post('/products/:id/image', {
    config: { permission: 'products' },
    onRequest,
    schema: {
      tags: TAGS,
      operationId: 'uploadMerchantProductImage', summary: "Upload a product's picture (replaces the previous one; emits product.updated)",
      description: 'multipart/form-data with one file: PNG, JPEG or WebP (sniffed from its bytes), at most 1 MB. The product\'s imageUrl becomes /media/products/<id>, served on the API and storefront origins.',
      security: SECURITY,
      params: IdParams,
      consumes: ['multipart/form-data'],
      body: ProductImageUploadBodySchema,
      response: { 200: ProductSchema, ...errorResponses(400, 401, 403, 404, 413) }
    }
  }, async (request) => {
    const businessId = businessOf(request)
    if (!request.isMultipart()) throw badRequest('upload_not_multipart', 'Send the picture as multipart/form-data')
    const file = await request.file()
    if (file === undefined) throw badRequest('upload_file_missing', 'No file in the upload')
    const bytes = await file.toBuffer()
    const contentType = sniffImage(bytes)
    if (contentType === null) throw badRequest('upload_not_image', 'The file is not a PNG, JPEG or WebP image')
    return await commerce.setProductImage(businessId, request.params.id, contentType, bytes)
  })

  fastify.delete('/products/:id', {
    config: { permission: 'products' },
    onRequest,
    schema: {
      tags: TAGS,
      operationId: 'deleteMerchantProduct', summary: 'Delete a product and its reviews (emits product.deleted)',
      security: SECURITY,
      params: IdParams,
      response: { 204: Type.Null({ description: 'Deleted' }), ...errorResponses(400, 401, 403, 404) }
    }
  }, async (request, reply) => {
    await commerce.deleteProduct(businessOf(request), request.params.id)
    return reply.code(204).send(null)
  })
}

export default productRoutes
