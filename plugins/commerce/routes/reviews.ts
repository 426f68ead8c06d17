import { Type } from '@sinclair/typebox'
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { IdParams, Paginated, errorResponses } from '../../../server/schemas.ts'
import { ReviewListQuerySchema, ReviewSchema, ReviewStatsSchema } from '../schemas.ts'
import { SECURITY, TAGS, businessOf, type MerchantRouteOptions } from './common.ts'

const reviewRoutes: FastifyPluginAsyncTypebox<MerchantRouteOptions> = async (fastify, { commerce, guards }) => {
  const onRequest = guards.requireMerchant

  fastify.get('/reviews', {
    config: { permission: 'reviews' },
    onRequest,
    schema: {
      tags: TAGS,
      operationId: 'listMerchantReviews', summary: 'List reviews of your products, newest first, optionally of one product',
      security: SECURITY,
      querystring: ReviewListQuerySchema,
      response: { 200: Paginated(ReviewSchema), ...errorResponses(400, 401, 403) }
    }
  }, async (request) => await commerce.listReviews(businessOf(request), request.query))

  fastify.get('/reviews/stats', {
    config: { permission: 'reviews' },
    onRequest,
    schema: {
      tags: TAGS,
      operationId: 'getMerchantReviewStats', summary: 'Average rating, count and 1–5 distribution, optionally of one product',
      security: SECURITY,
      querystring: Type.Object({ productId: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })) }, { additionalProperties: false }),
      response: { 200: ReviewStatsSchema, ...errorResponses(400, 401, 403) }
    }
  }, async (request) => await commerce.reviewStats(businessOf(request), request.query.productId))

  fastify.delete('/reviews/:id', {
    config: { permission: 'reviews' },
    onRequest,
    schema: {
      tags: TAGS,
      operationId: 'deleteMerchantReview', summary: 'Remove a review (emits review.deleted)',
      security: SECURITY,
      params: IdParams,
      response: { 204: Type.Null({ description: 'Deleted' }), ...errorResponses(400, 401, 403, 404) }
    }
  }, async (request, reply) => {
    await commerce.deleteReview(businessOf(request), request.params.id)
    return reply.code(204).send(null)
  })
}

export default reviewRoutes
