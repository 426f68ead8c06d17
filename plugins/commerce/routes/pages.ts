import { Type } from '@sinclair/typebox'
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Paginated, errorResponses } from '../../../server/schemas.ts'
import { PageBlocksBodySchema, PageCreateBodySchema, PageListQuerySchema, PagePatchBodySchema, PageSchema, SlugParams } from '../schemas.ts'
import { SECURITY, TAGS, businessOf, type MerchantRouteOptions } from './common.ts'
import { badRequest } from '../errors.ts'
import { MAX_PREVIEW_TOKEN_LENGTH, signPreviewToken } from '../../../server/preview-token.ts'

const PreviewSchema = Type.Object({
  previewUrl: Type.String({ description: 'The page on the storefront origin, with the preview token: frame it' }),
  expiresAt: Type.String({ format: 'date-time' })
}, { title: 'PagePreview' })

const pageRoutes: FastifyPluginAsyncTypebox<MerchantRouteOptions> = async (fastify, { commerce, guards }) => {
  const onRequest = guards.requireMerchant

  fastify.get('/pages', {
    config: { permission: 'pages' },
    onRequest,
    schema: {
      tags: TAGS,
      operationId: 'listMerchantPages', summary: 'List your site pages, newest first',
      security: SECURITY,
      querystring: PageListQuerySchema,
      response: { 200: Paginated(PageSchema), ...errorResponses(400, 401, 403) }
    }
  }, async (request) => await commerce.listPages(businessOf(request), request.query))

  fastify.post('/pages', {
    config: { permission: 'pages' },
    onRequest,
    schema: {
      tags: TAGS,
      operationId: 'createMerchantPage', summary: 'Create a site page (no blocks yet)',
      security: SECURITY,
      body: PageCreateBodySchema,
      response: { 201: PageSchema, ...errorResponses(400, 401, 403, 409) }
    }
  }, async (request, reply) => reply.code(201).send(await commerce.createPage(businessOf(request), request.body)))

  fastify.get('/pages/:slug', {
    config: { permission: 'pages' },
    onRequest,
    schema: {
      tags: TAGS,
      operationId: 'getMerchantPage', summary: 'One of your pages, with its blocks',
      security: SECURITY,
      params: SlugParams,
      response: { 200: PageSchema, ...errorResponses(400, 401, 403, 404) }
    }
  }, async (request) => await commerce.getPage(businessOf(request), request.params.slug))

  fastify.patch('/pages/:slug', {
    config: { permission: 'pages' },
    onRequest,
    schema: {
      tags: TAGS,
      operationId: 'updateMerchantPage', summary: 'Rename, re-slug, publish or unpublish a page',
      security: SECURITY,
      params: SlugParams,
      body: PagePatchBodySchema,
      response: { 200: PageSchema, ...errorResponses(400, 401, 403, 404, 409) }
    }
  }, async (request) => await commerce.updatePage(businessOf(request), request.params.slug, request.body))

  fastify.delete('/pages/:slug', {
    config: { permission: 'pages' },
    onRequest,
    schema: {
      tags: TAGS,
      operationId: 'deleteMerchantPage', summary: 'Delete a page',
      security: SECURITY,
      params: SlugParams,
      response: { 204: Type.Null({ description: 'Deleted' }), ...errorResponses(400, 401, 403, 404) }
    }
  }, async (request, reply) => {
    await commerce.deletePage(businessOf(request), request.params.slug)
    return reply.code(204).send(null)
  })

  fastify.put('/pages/:slug/blocks', {
    config: { permission: 'pages' },
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
    const page = await commerce.getPage(businessId, request.params.slug)
    const blocks = await commerce.providers.pageBlocks.value.checkBlocks(businessId, request.body, page.blocks)
    return await commerce.setPageBlocks(businessId, request.params.slug, blocks)
  })

  fastify.post('/pages/:slug/preview', {
    config: { permission: 'pages' },
    onRequest,
    schema: {
      tags: TAGS,
      operationId: 'previewMerchantPage', summary: 'A storefront URL that shows a draft of the page (the theme editor’s preview)',
      description: 'The draft blocks are checked like a save, then signed into a preview token (10 minutes; business, page and draft blocks) that the storefront renders without any session, published or not. Nothing is saved.',
      security: SECURITY,
      params: SlugParams,
      body: PageBlocksBodySchema,
      response: { 200: PreviewSchema, ...errorResponses(400, 401, 403, 404) }
    }
  }, async (request) => {
    const businessId = businessOf(request)
    const page = await commerce.getPage(businessId, request.params.slug)
    const blocks = await commerce.providers.pageBlocks.value.checkBlocks(businessId, request.body, page.blocks)
    const { token, expiresAt } = signPreviewToken(fastify.config.jwtSecret, { businessId, pageId: page.id, blocks }, fastify.clock.now())
    if (token.length > MAX_PREVIEW_TOKEN_LENGTH) throw badRequest('page_preview_too_large', 'This draft is too large to preview: save it to see it on the storefront')
    const business = await commerce.getBusinessProfile(businessId)
    return { previewUrl: `${fastify.origins.storeUrl(business.slug)}/${encodeURIComponent(page.slug)}?preview=${token}`, expiresAt: expiresAt.toISOString() }
  })
}

export default pageRoutes
