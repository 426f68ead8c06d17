import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { errorResponses } from '../../server/schemas.ts'
import { ActivityPageSchema, ActivityQuery } from './schemas.ts'
import type { Activity, ActivityNeeds } from './service.ts'

const tags = ['activity']
const security = [{ developerJwt: [] }]

/** The business's activity log (DESIGN §24): read only. Apps have no route to it, neither to read nor to write. */
const activityRoutes: FastifyPluginAsyncTypebox<{ activity: Activity, guards: ActivityNeeds['guards'] }> = async (fastify, { activity, guards }) => {
  fastify.addHook('onRequest', guards.requireMerchant)

  fastify.get('/activity', {
    // every member may open it; what each sees is narrowed to the resources of their permissions
    config: { permission: null },
    schema: {
      tags, security, operationId: 'listActivity', summary: 'The business\'s activity: who changed what, newest first',
      description: 'Each change to the business\'s orders, products, reviews, pages, settings, apps and charges, with its actor (customer, staff, app, platform) and what changed, written in the change\'s own transaction. Keyset pages: pass `nextCursor` as `before`. A staff member sees only the entries of the resources their permissions cover. Apps cannot write it.',
      querystring: ActivityQuery,
      response: { 200: ActivityPageSchema, ...errorResponses(400, 401, 403) }
    }
  }, async (request) => await activity.page(request.user.businessId as string, request.query, request.user.permissions))
}

export default activityRoutes
