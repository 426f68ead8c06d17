import type { FastifyReply, FastifyRequest } from 'fastify'
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { LATEST_API_VERSION } from '../../../sdk/src/contract/api-versions.ts'
import { answerInVersion } from '../../api-versions/index.ts'
import { IdParams, errorResponses, pageWindow } from '../../../server/schemas.ts'
import { PRODUCT_PAGE_LIMITS, ProductListQuerySchema, SlugParams } from '../../commerce/schemas.ts'
import { CURSOR_MODE, ProductAnswer, ProductPage, SECURITY, TAGS, businessOf, presentProducts, syncQueryOf, type AppApiRouteOptions, type CursorAnswer } from './common.ts'
import { inCursorMode } from '../../../sdk/src/contract/bulk-exports.ts'

const JSON_TYPE = 'application/json; charset=utf-8'

/**
 * Product reads are answered from the catalogue cache (plugins/merchant/catalog-cache.ts): the body
 * is serialized once, in the newest API version's shape, with the route's response schema and kept
 * until the business's products change. An app pinned to the newest version gets those bytes as they
 * are; an older version's answer is downgraded from them once (plugins/api-versions answerInVersion)
 * and kept beside them under its own key, so a cached read costs no parse in any version.
 */
const productRoutes: FastifyPluginAsyncTypebox<AppApiRouteOptions> = async (fastify, { commerce, appAuth, syncSettleSeconds }) => {
  const preValidation = appAuth.requireScope('read_products')
  const cached = async (request: FastifyRequest, reply: FastifyReply, businessId: string, key: string, load: () => Promise<unknown>) => {
    const newest = async () => await commerce.catalogCache.read(businessId, key,
      async () => String(reply.serialize(await presentProducts(commerce, businessId, await load()))))
    const version = request.apiVersion ?? LATEST_API_VERSION
    const body = version === LATEST_API_VERSION
      ? await newest()
      : await commerce.catalogCache.read(businessId, `${key}@${version}`, async () => answerInVersion(request, await newest()))
    reply.versionShaped = true
    return await reply.type(JSON_TYPE).send(body)
  }

  fastify.get('/products', {
    preValidation,
    schema: {
      tags: TAGS,
      operationId: 'listProducts', summary: 'List products, newest first, optionally of one category (read_products)', description: 'The token\'s business only. Paginated envelope; `limit` above its maximum is clamped.' + CURSOR_MODE,
      security: SECURITY,
      querystring: ProductListQuerySchema,
      response: { 200: ProductPage, ...errorResponses(400, 401, 403, 429) }
    }
  }, async (request, reply) => {
    const query = syncQueryOf(request, request.query)
    // cursor mode reads past the catalogue cache: each sync page is asked once
    if (inCursorMode(query)) {
      return await presentProducts(commerce, businessOf(request), await commerce.syncProducts(businessOf(request), query, syncSettleSeconds)) as CursorAnswer
    }
    const { page, limit } = pageWindow(request.query, PRODUCT_PAGE_LIMITS)
    const { category } = request.query
    return await cached(request, reply, businessOf(request), `list:${page}:${limit}:${category ?? ''}`,
      async () => await commerce.listProducts(businessOf(request), { page, limit, category }))
  })

  fastify.get('/products/:id', {
    preValidation,
    schema: {
      tags: TAGS,
      operationId: 'getProduct', summary: 'Product by id (read_products)', description: 'The token\'s business only: another business\'s product is a 404.',
      security: SECURITY,
      params: IdParams,
      response: { 200: ProductAnswer, ...errorResponses(400, 401, 403, 404, 429) }
    }
  }, async (request, reply) => await cached(request, reply, businessOf(request), `id:${request.params.id}`,
    async () => await commerce.getProduct(businessOf(request), request.params.id)))

  fastify.get('/products/slug/:slug', {
    preValidation,
    schema: {
      tags: TAGS,
      operationId: 'getProductBySlug', summary: 'Product by slug (read_products)', description: 'The token\'s business only: a slug of another business is a 404.',
      security: SECURITY,
      params: SlugParams,
      response: { 200: ProductAnswer, ...errorResponses(400, 401, 403, 404, 429) }
    }
  }, async (request, reply) => await cached(request, reply, businessOf(request), `slug:${request.params.slug}`,
    async () => await commerce.getProductBySlug(businessOf(request), request.params.slug)))
}

export default productRoutes
