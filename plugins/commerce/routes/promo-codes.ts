import { Type } from '@sinclair/typebox'
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { IdParams, Paginated, errorResponses } from '../../../server/schemas.ts'
import { PromoCodeCreateBodySchema, PromoCodeListQuerySchema, PromoCodePatchBodySchema, PromoCodeSchema } from '../schemas.ts'
import { SECURITY, TAGS, businessOf, type MerchantRouteOptions } from './common.ts'

/** The merchant's promo codes, applied by the storefront's quote and order (`promoCode`). */
const promoCodeRoutes: FastifyPluginAsyncTypebox<MerchantRouteOptions> = async (fastify, { commerce, guards }) => {
  const onRequest = guards.requireMerchant

  fastify.get('/promo-codes', {
    config: { permission: 'products' },
    onRequest,
    schema: {
      tags: TAGS,
      operationId: 'listMerchantPromoCodes', summary: 'List your promo codes, newest first',
      security: SECURITY,
      querystring: PromoCodeListQuerySchema,
      response: { 200: Paginated(PromoCodeSchema), ...errorResponses(400, 401, 403) }
    }
  }, async (request) => await commerce.listPromoCodes(businessOf(request), request.query))

  fastify.post('/promo-codes', {
    config: { permission: 'products' },
    onRequest,
    schema: {
      tags: TAGS,
      operationId: 'createMerchantPromoCode', summary: 'Create a promo code (percentOff or amountOff)',
      description: 'The code is stored upper case and is unique per business whatever its case (409).',
      security: SECURITY,
      body: PromoCodeCreateBodySchema,
      response: { 201: PromoCodeSchema, ...errorResponses(400, 401, 403, 409) }
    }
  }, async (request, reply) => reply.code(201).send(await commerce.createPromoCode(businessOf(request), request.body)))

  fastify.get('/promo-codes/:id', {
    config: { permission: 'products' },
    onRequest,
    schema: {
      tags: TAGS,
      operationId: 'getMerchantPromoCode', summary: 'One of your promo codes',
      security: SECURITY,
      params: IdParams,
      response: { 200: PromoCodeSchema, ...errorResponses(400, 401, 403, 404) }
    }
  }, async (request) => await commerce.getPromoCode(businessOf(request), request.params.id))

  fastify.patch('/promo-codes/:id', {
    config: { permission: 'products' },
    onRequest,
    schema: {
      tags: TAGS,
      operationId: 'updateMerchantPromoCode', summary: 'Change a promo code (switch it off with active: false)',
      security: SECURITY,
      params: IdParams,
      body: PromoCodePatchBodySchema,
      response: { 200: PromoCodeSchema, ...errorResponses(400, 401, 403, 404, 409) }
    }
  }, async (request) => await commerce.updatePromoCode(businessOf(request), request.params.id, request.body))

  fastify.delete('/promo-codes/:id', {
    config: { permission: 'products' },
    onRequest,
    schema: {
      tags: TAGS,
      operationId: 'deleteMerchantPromoCode', summary: 'Delete a promo code (orders keep the code they used)',
      security: SECURITY,
      params: IdParams,
      response: { 204: Type.Null({ description: 'Deleted' }), ...errorResponses(400, 401, 403, 404) }
    }
  }, async (request, reply) => {
    await commerce.deletePromoCode(businessOf(request), request.params.id)
    return reply.code(204).send(null)
  })
}

export default promoCodeRoutes
