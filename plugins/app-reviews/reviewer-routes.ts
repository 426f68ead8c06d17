import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Paginated, PaginationQuery, errorResponses } from '../../server/schemas.ts'
import { AppIdParams, AppReviewWithBusinessSchema, HideAppReviewBodySchema, ManagedAppReviewSchema, ReviewIdParams } from './schemas.ts'
import type { AppReviews, AppReviewsNeeds } from './service.ts'

const tags = ['review']
const security = [{ developerJwt: [] }]

/** A reviewer's moderation of businesses' reviews of apps (DESIGN §24). */
const reviewerAppReviewRoutes: FastifyPluginAsyncTypebox<{ appReviews: AppReviews, guards: AppReviewsNeeds['guards'] }> = async (fastify, { appReviews, guards }) => {
  fastify.addHook('onRequest', guards.requireRole('REVIEWER'))

  fastify.get('/apps/:appId/app-reviews', {
    schema: {
      tags, security, operationId: 'listAppReviewsForReviewer', summary: 'Businesses\' reviews of an app, newest first, to moderate',
      description: 'Every review of the app, hidden ones included with their reason, as its developer sees them; an unknown app lists none.',
      params: AppIdParams, querystring: PaginationQuery(), response: { 200: Paginated(AppReviewWithBusinessSchema), ...errorResponses(400, 401, 403) }
    }
  }, async (request) => await appReviews.developerList(request.params.appId, request.query))

  fastify.post('/app-reviews/:id/hide', {
    schema: {
      tags, security, operationId: 'hideAppReview', summary: 'Hide an abusive review, with a reason',
      description: 'The review leaves the public list and the app\'s average; its business and the developer still see it, with the reason. 400 without a reason.',
      params: ReviewIdParams, body: HideAppReviewBodySchema, response: { 200: ManagedAppReviewSchema, ...errorResponses(400, 401, 403, 404) }
    }
  }, async (request) => await appReviews.hide(request.params.id, request.user.sub, request.body.reason))
}

export default reviewerAppReviewRoutes
