import { Type } from '@sinclair/typebox'
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Paginated, errorResponses } from '../../../server/schemas.ts'
import { PageBlocksBodySchema } from '../../installations/schemas.ts'
import { PageCreateBodySchema, PageListQuerySchema, PagePatchBodySchema, PageSchema, SlugParams } from '../schemas.ts'
import { SECURITY, TAGS, businessOf } from './common.ts'

const pageRoutes: FastifyPluginAsyncTypebox = async (fastify) => {
  const onRequest = fastify.requireRole('MERCHANT')

  fastify.get('/pages', {
    onRequest,
    schema: {
      tags: TAGS,
      operationId: 'listMerchantPages', summary: 'List your site pages, newest first',
      security: SECURITY,
      querystring: PageListQuerySchema,
      response: { 200: Paginated(PageSchema), ...errorResponses(400, 401, 403) }
    }
  }, async (request) => await fastify.commerce.listPages(businessOf(request), request.query))

  fastify.post('/pages', {
    onRequest,
    schema: {
      tags: TAGS,
      operationId: 'createMerchantPage', summary: 'Create a site page (no blocks yet)',
      security: SECURITY,
      body: PageCreateBodySchema,
      response: { 201: PageSchema, ...errorResponses(400, 401, 403, 409) }
    }
  }, async (request, reply) => reply.code(201).send(await fastify.commerce.createPage(businessOf(request), request.body)))

  fastify.get('/pages/:slug', {
    onRequest,
    schema: {
      tags: TAGS,
      operationId: 'getMerchantPage', summary: 'One of your pages, with its blocks',
      security: SECURITY,
      params: SlugParams,
      response: { 200: PageSchema, ...errorResponses(400, 401, 403, 404) }
    }
  }, async (request) => await fastify.commerce.getPage(businessOf(request), request.params.slug))

  fastify.patch('/pages/:slug', {
    onRequest,
    schema: {
      tags: TAGS,
      operationId: 'updateMerchantPage', summary: 'Rename, re-slug, publish or unpublish a page',
      security: SECURITY,
      params: SlugParams,
      body: PagePatchBodySchema,
      response: { 200: PageSchema, ...errorResponses(400, 401, 403, 404, 409) }
    }
  }, async (request) => await fastify.commerce.updatePage(businessOf(request), request.params.slug, request.body))

  fastify.delete('/pages/:slug', {
    onRequest,
    schema: {
      tags: TAGS,
      operationId: 'deleteMerchantPage', summary: 'Delete a page',
      security: SECURITY,
      params: SlugParams,
      response: { 204: Type.Null({ description: 'Deleted' }), ...errorResponses(400, 401, 403, 404) }
    }
  }, async (request, reply) => {
    await fastify.commerce.deletePage(businessOf(request), request.params.slug)
    return reply.code(204).send(null)
  })

  fastify.put('/pages/:slug/blocks', {
    onRequest,
    schema: {
      tags: TAGS,
      operationId: 'putMerchantPageBlocks', summary: 'Replace the blocks of a page, in display order',
      description: 'Each block names an active installation of your business and an active block of its app; settings are validated against the block’s settingsSchema (defaultConfig when omitted). 400 lists every problem.',
      security: SECURITY,
      params: SlugParams,
      body: PageBlocksBodySchema,
      response: { 200: PageSchema, ...errorResponses(400, 401, 403, 404) }
    }
  }, async (request) => {
    const businessId = businessOf(request)
    await fastify.commerce.getPage(businessId, request.params.slug)
    const blocks = await fastify.installations.checkBlocks(businessId, request.body)
    return await fastify.commerce.setPageBlocks(businessId, request.params.slug, blocks)
  })
}

export default pageRoutes
