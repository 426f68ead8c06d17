import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from '@sinclair/typebox'
import { errorResponses } from '../../server/schemas.ts'
import { AppIdParams, AppReviewBodySchema, ManagedAppReviewSchema } from './schemas.ts'
import type { AppReviews, AppReviewsNeeds } from './service.ts'

const tags = ['merchant']
const security = [{ developerJwt: [] }]

/** A business's own review of an app (DESIGN §24): one per app, edited by PUT again, withdrawn by DELETE. */
const merchantAppReviewRoutes: FastifyPluginAsyncTypebox<{ appReviews: AppReviews, guards: AppReviewsNeeds['guards'] }> = async (fastify, { appReviews, guards }) => {
  fastify.addHook('onRequest', guards.requireMerchant)
  const businessOf = (request: { user: { businessId: string | null } }) => request.user.businessId as string

  fastify.get('/apps/:appId/review', {
    config: { permission: 'apps' },
    schema: {
      tags, security, operationId: 'getMyAppReview', summary: 'The business\'s review of an app',
      description: '`review` is null while the business has not reviewed the app (or has withdrawn its review).',
      params: AppIdParams,
      response: {
        200: Type.Object({ review: Type.Union([ManagedAppReviewSchema, Type.Null()]) }, { additionalProperties: false }),
        ...errorResponses(401, 403)
      }
    }
  }, async (request) => await appReviews.mine(businessOf(request), request.params.appId))

  fastify.put('/apps/:appId/review', {
    config: { permission: 'apps' },
    schema: {
      tags, security, operationId: 'putMyAppReview', summary: 'Rate an app, or edit the business\'s rating',
      description: 'Allowed once a real (not test) installation of the app on the business has existed for APP_REVIEW_MIN_INSTALL_HOURS (default 24), while installed or less than 90 days after its uninstall; otherwise 403 `review_not_allowed`. A hidden review stays hidden when edited.',
      params: AppIdParams, body: AppReviewBodySchema, response: { 200: ManagedAppReviewSchema, ...errorResponses(400, 401, 403) }
    }
  }, async (request) => await appReviews.put(businessOf(request), request.user.sub, request.params.appId, request.body))

  fastify.delete('/apps/:appId/review', {
    config: { permission: 'apps' },
    schema: {
      tags, security, operationId: 'deleteMyAppReview', summary: 'Withdraw the business\'s review of an app (with its answer)',
      params: AppIdParams, response: { 204: Type.Null(), ...errorResponses(401, 403, 404) }
    }
  }, async (request, reply) => {
    await appReviews.withdraw(businessOf(request), request.params.appId)
    return await reply.code(204).send(null)
  })
}

export default merchantAppReviewRoutes
