import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from '@sinclair/typebox'
import { errorResponses } from '../../../server/schemas.ts'
import { notFound } from '../errors.ts'
import type { Commerce } from '../service.ts'

/** GET /media/products/:id — a product's uploaded picture; public and immutable (a new upload gets a new id). */
const productImageRoutes: FastifyPluginAsyncTypebox<{ commerce: Commerce }> = async (fastify, { commerce }) => {
  fastify.get('/:id', {
    schema: {
      tags: ['storefront'],
      operationId: 'getProductImage', security: [], summary: "A product's uploaded picture",
      description: 'The picture a merchant uploaded for a product (PNG, JPEG or WebP), served on the API and storefront origins. Public, and cached for good: a new upload gets a new id.',
      params: Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) }),
      response: { 200: Type.Unknown({ description: 'The image' }), ...errorResponses(404) }
    }
  }, async (request, reply) => {
    const image = await commerce.productImageById(request.params.id)
    if (image === null) throw notFound('image_not_found', 'Image')
    return reply
      .header('content-type', image.contentType)
      .header('x-content-type-options', 'nosniff')
      .header('cache-control', 'public, max-age=31536000, immutable')
      .send(image.bytes)
  })
}

export default productImageRoutes
