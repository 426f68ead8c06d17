import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Paginated, errorResponses } from '../../../server/schemas.ts'
import { ReviewListQuerySchema, ReviewSchema, ReviewStatsSchema } from '../../commerce/schemas.ts'
import { ReviewStatsQuerySchema } from '../schemas.ts'
import { SECURITY, TAGS, businessOf, type AppApiRouteOptions } from './common.ts'

const reviewRoutes: FastifyPluginAsyncTypebox<AppApiRouteOptions> = async (fastify, { commerce, checkoutHooks, appAuth }) => {
  const preValidation = appAuth.requireScope('read_reviews')

  fastify.get('/reviews', {
    preValidation,
    schema: {
      tags: TAGS,
      operationId: 'listReviews', summary: 'List reviews, newest first, optionally of one product (read_reviews)', description: 'The token\'s business only. Paginated envelope, optionally of one product; `limit` above its maximum is clamped.',
      security: SECURITY,
      querystring: ReviewListQuerySchema,
      response: { 200: Paginated(ReviewSchema), ...errorResponses(400, 401, 403, 429) }
    }
  }, async (request) => await commerce.listReviews(businessOf(request), request.query))

  fastify.get('/reviews/stats', {
    preValidation,
    schema: {
      tags: TAGS,
      operationId: 'getReviewStats', summary: 'Average rating, count and 1–5 distribution, optionally of one product (read_reviews)', description: 'The token\'s business only; a product of another business is a 404.',
      security: SECURITY,
      querystring: ReviewStatsQuerySchema,
      response: { 200: ReviewStatsSchema, ...errorResponses(400, 401, 403, 429) }
    }
  }, async (request) => await commerce.reviewStats(businessOf(request), request.query.productId))
}

export default reviewRoutes
