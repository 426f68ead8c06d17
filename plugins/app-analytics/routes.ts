import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { errorResponses } from '../../server/schemas.ts'
import { AppIdParams } from '../apps/schemas.ts'
import { AnalyticsSchema, AnalyticsQuery } from './schemas.ts'
import { registerLiveTail } from './live.ts'
import type { AppAnalytics, AppAnalyticsNeeds } from './service.ts'

const tags = ['portal']
const security = [{ developerJwt: [] }]

/**
 * The developer's console for one app (DESIGN §16 "Console routes"): its analytics. The developer's
 * own app only (another developer's app is 404), across all its installations, the sandbox's test
 * installs included. The delivery log and the hook call log are their owners' (plugins/webhooks and
 * plugins/checkout-hooks console-routes.ts).
 */
const appAnalyticsRoutes: FastifyPluginAsyncTypebox<AppAnalyticsNeeds & { appAnalytics: AppAnalytics }> = async (fastify, { apps, guards, appAnalytics }) => {
  fastify.addHook('onRequest', guards.requireRole('DEVELOPER'))

  fastify.get('/:appId/analytics', {
    schema: {
      tags, security, operationId: 'getAppAnalytics', summary: 'Installs, deliveries, API usage and hook calls of my app',
      description: 'From daily counters kept 400 days. Days are UTC, today included. environment=live leaves test installs out (the spec\'s figures); sandbox counts only them.',
      params: AppIdParams, querystring: AnalyticsQuery, response: { 200: AnalyticsSchema, ...errorResponses(400, 401, 403, 404) }
    }
  }, async (request) => {
    const app = await apps.ownedApp(request.user.sub, request.params.appId)
    return await appAnalytics.analytics(app.id, { days: request.query.days, environment: request.query.environment })
  })
}

/** The console's live tail of the app's delivery attempts and hook calls (./live.ts). */
export const liveTailRoutes: FastifyPluginAsyncTypebox<AppAnalyticsNeeds> = async (fastify, { apps, guards }) => {
  fastify.addHook('onRequest', guards.requireRole('DEVELOPER'))
  registerLiveTail(fastify, {
    tags, security, owned: async (developerId, appId) => await apps.ownedApp(developerId, appId),
    onSessionRevoked: guards.onSessionRevoked
  })
}

export default appAnalyticsRoutes
