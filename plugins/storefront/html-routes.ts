import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { FastifyReply } from 'fastify'
import { Type } from '@sinclair/typebox'
import { loadAssets } from './assets.ts'
import { contentSecurityPolicy, securityHeaders } from './csp.ts'
import { renderNotFound, renderStorefront } from './render.ts'
import { HOME_SLUG, storeProductPage } from './service.ts'
import { storefrontView, type StorefrontNeeds } from './view.ts'
import type { PageRow } from '../commerce/service.ts'
import { verifyPreviewToken, type PreviewBlock } from '../../server/preview-token.ts'

/** Slugs are lowercase words and dashes; anything else cannot name a business or a page. */
const SLUG = /^[a-z0-9]+(?:-[a-z0-9]+)*$/
const isSlug = (value: string) => value.length <= 100 && SLUG.test(value)

// Storefront params are checked in the handler: a bad slug is the storefront's 404 page, not a JSON 400.
const PageParams = Type.Object({ businessSlug: Type.String(), pageSlug: Type.Optional(Type.String()) })
// Any query is accepted (tracking parameters, repeated keys): only preview means something.
const PreviewQuery = Type.Object({ preview: Type.Optional(Type.Unknown({ description: '1, or an editor preview token: accepts SERVICE_BLOCK_UPDATE from the admin' })) })

/** Server-rendered storefront pages and the files they load (host script, stylesheet). */
const storefrontHtmlRoutes: FastifyPluginAsyncTypebox<StorefrontNeeds> = async (fastify, { commerce, installations, checkoutHooks }) => {
  const assets = await loadAssets()
  // read per request: with PORT=0 the admin's port is known once the process listens
  const adminOrigin = () => new URL(fastify.origins.adminUrl).origin

  fastify.get('/_assets/:name', { schema: { hide: true, params: Type.Object({ name: Type.String() }) } }, async (request, reply) => {
    const asset = assets.get(request.params.name)
    if (asset === undefined) return await reply.code(404).type('text/plain; charset=utf-8').send('Not found')
    return await reply.headers({ 'content-type': asset.contentType, 'x-content-type-options': 'nosniff', 'cache-control': 'public, max-age=300' }).send(asset.body)
  })

  async function notFound (reply: FastifyReply, business: { name: string, slug: string } | null) {
    return await reply.code(404).headers(securityHeaders(contentSecurityPolicy(null, [adminOrigin()]))).send(renderNotFound(business))
  }

  /**
   * `preview=1` lets the framing admin send SERVICE_BLOCK_UPDATE; `preview=<token>` (the editor, DESIGN §16)
   * also shows the token's draft blocks on its page, published or not. A token for another business or
   * page, expired or forged, is ignored: the page shows as customers see it.
   */
  async function draftOf (preview: unknown, businessId: string): Promise<{ page: PageRow, blocks: PreviewBlock[] } | null> {
    if (typeof preview !== 'string' || preview === '1') return null
    const claims = verifyPreviewToken(fastify.config.jwtSecret, preview, fastify.clock.now())
    if (claims === null || claims.businessId !== businessId) return null
    const page = await commerce.pageById(businessId, claims.pageId)
    return page === null ? null : { page, blocks: claims.blocks }
  }

  async function page (params: { businessSlug: string, pageSlug?: string }, previewParam: unknown, reply: FastifyReply) {
    if (!isSlug(params.businessSlug) || (params.pageSlug !== undefined && !isSlug(params.pageSlug))) return await notFound(reply, null)
    const business = await commerce.businessBySlug(params.businessSlug)
    if (business === null) return await notFound(reply, null)
    const pages = await commerce.publishedPages(business.id)
    const draft = await draftOf(previewParam, business.id)
    const preview = previewParam === '1' || (draft !== null && draft.page.slug === params.pageSlug)
    let current = params.pageSlug === undefined
      ? pages.find((p) => p.slug === HOME_SLUG) ?? pages[0] ?? null
      : pages.find((p) => p.slug === params.pageSlug) ?? null
    if (draft !== null && draft.page.slug === params.pageSlug) current = { ...draft.page, blocks: draft.blocks }
    if (params.pageSlug !== undefined && current === null) return await notFound(reply, business)
    const [products, active] = await Promise.all([
      commerce.listVisibleProducts(business.id).then((page) => storeProductPage(page, business.currency)),
      installations.activeExtensions(business.id)
    ])
    const view = storefrontView({ business, page: current, pages, products, installations: active, previewOrigin: preview ? adminOrigin() : null })
    return await reply.headers(securityHeaders(contentSecurityPolicy(view, [adminOrigin()]))).send(renderStorefront(view))
  }

  fastify.get('/:businessSlug', { schema: { hide: true, params: PageParams, querystring: PreviewQuery } },
    async (request, reply) => await page(request.params, request.query.preview, reply))
  fastify.get('/:businessSlug/:pageSlug', { schema: { hide: true, params: PageParams, querystring: PreviewQuery } },
    async (request, reply) => await page(request.params, request.query.preview, reply))
}

export default storefrontHtmlRoutes
