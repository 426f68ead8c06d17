import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Paginated, errorResponses } from '../../server/schemas.ts'
import { AppIdParams } from '../apps/schemas.ts'
import { DeliverySchema } from '../webhooks/schemas.ts'
import { AnalyticsSchema, AppDeliveryQuery, HookCallQuery, HookCallSchema } from './schemas.ts'

const tags = ['portal']
const security = [{ developerJwt: [] }]

/** The developer's view of one app in production: installs, delivery health, and the call logs. */
const appAnalyticsRoutes: FastifyPluginAsyncTypebox = async (fastify) => {
  fastify.addHook('onRequest', fastify.requireRole('DEVELOPER'))

  fastify.get('/:appId/analytics', {
    schema: {
      tags, security, operationId: 'getAppAnalytics', summary: 'Installs and webhook health of my app', description: 'Test installs are excluded. Days are UTC, the last 30 including today.',
      params: AppIdParams, response: { 200: AnalyticsSchema, ...errorResponses(401, 403, 404) }
    }
  }, async (request) => {
    const app = await fastify.apps.ownedApp(fastify.db, request.user.sub, request.params.appId)
    return await fastify.appAnalytics.analytics(app.id)
  })

  fastify.get('/:appId/deliveries', {
    schema: {
      tags, security, operationId: 'listAppDeliveries', summary: 'Webhook delivery log across the installations of my app', params: AppIdParams, querystring: AppDeliveryQuery,
      response: { 200: Paginated(DeliverySchema), ...errorResponses(400, 401, 403, 404) }
    }
  }, async (request) => {
    const app = await fastify.apps.ownedApp(fastify.db, request.user.sub, request.params.appId)
    return await fastify.webhooks.deliveriesOfApp(app.id, request.query)
  })

  fastify.get('/:appId/hook-calls', {
    schema: {
      tags, security, operationId: 'listAppHookCalls', summary: 'Hook call log of my app', params: AppIdParams, querystring: HookCallQuery,
      response: { 200: Paginated(HookCallSchema), ...errorResponses(400, 401, 403, 404) }
    }
  }, async (request) => {
    const app = await fastify.apps.ownedApp(fastify.db, request.user.sub, request.params.appId)
    return await fastify.checkoutHooks.callLog(app.id, request.query)
  })
}

export default appAnalyticsRoutes
