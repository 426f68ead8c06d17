import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Paginated, errorResponses } from '../../../server/schemas.ts'
import { PageListQuerySchema, PageSchema, SlugParams } from '../../commerce/schemas.ts'
import { SECURITY, TAGS, businessOf, type AppApiRouteOptions } from './common.ts'

const pageRoutes: FastifyPluginAsyncTypebox<AppApiRouteOptions> = async (fastify, { commerce, checkoutHooks, appAuth }) => {
  const preValidation = appAuth.requireScope('read_pages')

  fastify.get('/pages', {
    preValidation,
    schema: {
      tags: TAGS,
      operationId: 'listPages', summary: 'List site pages, newest first (read_pages)', description: 'The token\'s business only, published or not. Paginated envelope; `limit` above its maximum is clamped.',
      security: SECURITY,
      querystring: PageListQuerySchema,
      response: { 200: Paginated(PageSchema), ...errorResponses(400, 401, 403, 429) }
    }
  }, async (request) => await commerce.listPages(businessOf(request), request.query))

  fastify.get('/pages/:slug', {
    preValidation,
    schema: {
      tags: TAGS,
      operationId: 'getPage', summary: 'Site page by slug, with its blocks (read_pages)', description: 'The token\'s business only; the blocks are the ordered instances placed on it.',
      security: SECURITY,
      params: SlugParams,
      response: { 200: PageSchema, ...errorResponses(400, 401, 403, 404, 429) }
    }
  }, async (request) => await commerce.getPage(businessOf(request), request.params.slug))
}

export default pageRoutes
