import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { IdParams, errorResponses } from '../../server/schemas.ts'
import { PageSchema, SlugParams } from '../commerce/schemas.ts'
import { businessOf } from '../commerce/routes/common.ts'
import { getEmbeds, putEmbeds, putPageBlocks } from './merchant-service.ts'
import { EmbedsBodySchema, EmbedsResponseSchema, PageBlocksBodySchema } from './schemas.ts'

const security = [{ developerJwt: [] }]

/** /merchant: what the merchant places on the storefront (page blocks) and injects in it (embeds). */
const storefrontMerchantRoutes: FastifyPluginAsyncTypebox = async (fastify) => {
  fastify.addHook('onRequest', fastify.requireRole('MERCHANT'))

  fastify.put('/pages/:slug/blocks', {
    schema: {
      tags: ['merchant'],
      summary: 'Replace the blocks of a page, in display order',
      description: 'Each block names an active installation of your business and an active block of its app; settings are validated against the block’s settingsSchema (defaultConfig when omitted). 400 lists every problem.',
      security,
      params: SlugParams,
      body: PageBlocksBodySchema,
      response: { 200: PageSchema, ...errorResponses(400, 401, 403, 404) }
    }
  }, async (request) => await putPageBlocks(fastify.db, businessOf(request), request.params.slug, request.body))

  fastify.get('/installations/:id/embeds', {
    schema: {
      tags: ['installations'],
      summary: 'The app’s embeds and how this installation configures them',
      security,
      params: IdParams,
      response: { 200: EmbedsResponseSchema, ...errorResponses(400, 401, 403, 404) }
    }
  }, async (request) => await getEmbeds(fastify.db, businessOf(request), request.params.id))

  fastify.put('/installations/:id/embeds', {
    schema: {
      tags: ['installations'],
      summary: 'Enable, disable and configure embeds',
      description: 'Keyed by embedType; settings are validated against each embed’s settingsSchema. An unknown or inactive embedType is a 400; embeds not named keep their configuration.',
      security,
      params: IdParams,
      body: EmbedsBodySchema,
      response: { 200: EmbedsResponseSchema, ...errorResponses(400, 401, 403, 404) }
    }
  }, async (request) => await putEmbeds(fastify.db, businessOf(request), request.params.id, request.body))
}

export default storefrontMerchantRoutes
