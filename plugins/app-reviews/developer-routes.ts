import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Paginated, PaginationQuery, errorResponses } from '../../server/schemas.ts'
import { AppIdParams, AppReviewParams, AppReviewReplyBodySchema, AppReviewWithBusinessSchema, ManagedAppReviewSchema } from './schemas.ts'
import type { AppReviews, AppReviewsNeeds } from './service.ts'

const tags = ['portal']
const security = [{ developerJwt: [] }]

/** The developer's side of businesses' reviews of their app (DESIGN §24): their own apps only, another developer's is a 404. */
const developerAppReviewRoutes: FastifyPluginAsyncTypebox<{ appReviews: AppReviews, apps: AppReviewsNeeds['apps'], guards: AppReviewsNeeds['guards'] }> = async (fastify, { appReviews, apps, guards }) => {
  fastify.addHook('onRequest', guards.requireRole('DEVELOPER'))

  fastify.get('/:appId/app-reviews', {
    schema: {
      tags, security, operationId: 'listAppReviews', summary: 'Businesses\' reviews of the app, newest first',
      description: 'Every review with its business\'s name, hidden ones included with their reason (they are not public).',
      params: AppIdParams, querystring: PaginationQuery(), response: { 200: Paginated(AppReviewWithBusinessSchema), ...errorResponses(400, 401, 403, 404) }
    }
  }, async (request) => {
    const app = await apps.ownedApp(request.user.sub, request.params.appId)
    return await appReviews.developerList(app.id, request.query)
  })

  fastify.put('/:appId/app-reviews/:id/reply', {
    schema: {
      tags, security, operationId: 'replyToAppReview', summary: 'Answer a review, once',
      description: '409 `reply_exists` when the review already has its answer; 404 for a review of another app.',
      params: AppReviewParams, body: AppReviewReplyBodySchema, response: { 200: ManagedAppReviewSchema, ...errorResponses(400, 401, 403, 404, 409) }
    }
  }, async (request) => {
    const app = await apps.ownedApp(request.user.sub, request.params.appId)
    return await appReviews.reply(app.id, request.params.id, request.body.body)
  })
}

export default developerAppReviewRoutes
