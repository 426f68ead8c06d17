import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from '@sinclair/typebox'
import { errorResponses } from '../../server/schemas.ts'
import { notFound } from './errors.ts'
import type { Apps } from './service.ts'

// the apps' media and the product pictures are checked alike (server/images.ts)
export { MAX_MEDIA_BYTES, sniffImage } from '../../server/images.ts'

/** GET /media/:id — public, immutable, served with its sniffed type and no sniffing by browsers. */
export const mediaRoutes: FastifyPluginAsyncTypebox<{ apps: Pick<Apps, 'mediaById'> }> = async (fastify, { apps }) => {
  fastify.get('/:id', {
    schema: {
      tags: ['portal'],
      operationId: 'getMedia', security: [], summary: 'An uploaded app icon or screenshot', description: 'Public and immutable: the id changes when the developer uploads a new file. 404 for an unknown id.',
      params: Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) }),
      response: { 200: Type.Unknown({ description: 'The image' }), ...errorResponses(404) }
    }
  }, async (request, reply) => {
    const row = await apps.mediaById(request.params.id)
    if (row === null) throw notFound('media_not_found', 'Media')
    return reply
      .header('content-type', row.contentType)
      .header('x-content-type-options', 'nosniff')
      .header('cache-control', 'public, max-age=31536000, immutable')
      .send(row.bytes)
  })
}
