import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from '@sinclair/typebox'
import { errorResponses } from '../../server/schemas.ts'
import { notFound } from './errors.ts'

export const MAX_MEDIA_BYTES = 1024 * 1024

/** The image type from the file's first bytes; the declared content type is not trusted. */
export function sniffImage (bytes: Buffer): 'image/png' | 'image/jpeg' | 'image/webp' | null {
  if (bytes.length >= 8 && bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return 'image/png'
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'image/jpeg'
  if (bytes.length >= 12 && bytes.toString('ascii', 0, 4) === 'RIFF' && bytes.toString('ascii', 8, 12) === 'WEBP') return 'image/webp'
  return null
}

/** GET /media/:id — public, immutable, served with its sniffed type and no sniffing by browsers. */
export const mediaRoutes: FastifyPluginAsyncTypebox = async (fastify) => {
  fastify.get('/:id', {
    schema: {
      tags: ['portal'],
      operationId: 'getMedia', security: [], summary: 'An uploaded app icon or screenshot', description: 'Public and immutable: the id changes when the developer uploads a new file. 404 for an unknown id.',
      params: Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) }),
      response: { 200: Type.Unknown({ description: 'The image' }), ...errorResponses(404) }
    }
  }, async (request, reply) => {
    const row = await fastify.apps.mediaById(request.params.id)
    if (row === null) throw notFound('media_not_found', 'Media')
    return reply
      .header('content-type', row.contentType)
      .header('x-content-type-options', 'nosniff')
      .header('cache-control', 'public, max-age=31536000, immutable')
      .send(row.bytes)
  })
}
