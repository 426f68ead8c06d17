import fp from 'fastify-plugin'
import { PREFIX } from '../../server/api-prefixes.ts'
import appAnalyticsService from './service.ts'
import appAnalyticsRoutes, { liveTailRoutes } from './routes.ts'

/** App analytics: the daily counters the others report into, and the console's analytics and live tail. */
export default fp(async function appAnalyticsCapability (fastify) {
  await fastify.register(appAnalyticsService)
  await fastify.register(appAnalyticsRoutes, { prefix: PREFIX.developerApps })
  await fastify.register(liveTailRoutes, { prefix: PREFIX.developerApps })
}, { name: 'app-analytics-capability', dependencies: ['auth-guards'] })
