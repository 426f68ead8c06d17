import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { errorResponses } from '../../../server/schemas.ts'
import { ReviewListQuerySchema, ReviewSchema, ReviewStatsSchema } from '../../commerce/schemas.ts'
import { ReviewStatsQuerySchema } from '../schemas.ts'
import { CURSOR_MODE, ListAnswer, SECURITY, TAGS, businessOf, syncQueryOf, type AppApiRouteOptions } from './common.ts'
import { inCursorMode } from '../../../sdk/src/contract/bulk-exports.ts'

const reviewRoutes: FastifyPluginAsyncTypebox<AppApiRouteOptions> = async (fastify, { commerce, appAuth, syncSettleSeconds }) => {
  const preValidation = appAuth.requireScope('read_reviews')

  fastify.get('/reviews', {
    preValidation,
    schema: {
      tags: TAGS,
      operationId: 'listReviews', summary: 'List reviews, newest first, optionally of one product (read_reviews)', description: 'The token\'s business only. Paginated envelope, optionally of one product; `limit` above its maximum is clamped.' + CURSOR_MODE,
      security: SECURITY,
      querystring: ReviewListQuerySchema,
      response: { 200: ListAnswer(ReviewSchema), ...errorResponses(400, 401, 403, 429) }
    }
  }, async (request) => {
    const query = syncQueryOf(request, request.query)
    return inCursorMode(query)
      ? await commerce.syncReviews(businessOf(request), query, syncSettleSeconds)
      : await commerce.listReviews(businessOf(request), request.query)
  })

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
