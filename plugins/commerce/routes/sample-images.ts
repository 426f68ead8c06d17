import { readdirSync, readFileSync } from 'node:fs'
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from '@sinclair/typebox'
import { errorResponses } from '../../../server/schemas.ts'
import { notFound } from '../errors.ts'

/** The pictures of the sample catalogue (sample-data.ts: `/media/samples/<product slug>.svg`), shipped with the code. */
const FOLDER = new URL('../sample-images/', import.meta.url)
/** Our own drawings, but still SVG: no script runs and nothing loads, whichever origin serves them. */
const SVG_POLICY = "default-src 'none'; style-src 'unsafe-inline'"

export function sampleImages (): Map<string, Buffer> {
  return new Map(readdirSync(FOLDER).filter((name) => name.endsWith('.svg')).map((name) => [name, readFileSync(new URL(name, FOLDER))]))
}

/** GET /media/samples/:file — on the API and the storefront origins, as all of /media. */
const sampleImageRoutes: FastifyPluginAsyncTypebox = async (fastify) => {
  const images = sampleImages()
  fastify.get('/:file', {
    schema: {
      tags: ['storefront'],
      operationId: 'getSampleImage', security: [], summary: 'A picture of the sample catalogue (demo store and sandboxes)', description: 'Public and immutable pictures the seeded catalogues point at. 404 for an unknown file.',
      params: Type.Object({ file: Type.String({ minLength: 1, maxLength: 64 }) }),
      response: { 200: Type.Unknown({ description: 'The SVG image' }), ...errorResponses(404) }
    }
  }, async (request, reply) => {
    const image = images.get(request.params.file)
    if (image === undefined) throw notFound('image_not_found', 'Image')
    return reply
      .header('content-type', 'image/svg+xml')
      .header('content-security-policy', SVG_POLICY)
      .header('x-content-type-options', 'nosniff')
      .header('cache-control', 'public, max-age=86400')
      .send(image)
  })
}

export default sampleImageRoutes
