import fp from 'fastify-plugin'
import { PREFIX } from '../../server/api-prefixes.ts'
import type { CapabilityOptions } from '../../server/capability.ts'
import { startAppAnalytics, type AppAnalytics, type AppAnalyticsNeeds } from './service.ts'
import appAnalyticsRoutes, { liveTailRoutes } from './routes.ts'

export type { AppAnalytics, AppAnalyticsNeeds }

/** App analytics: the daily counters the others report into, and the console's analytics and live tail. */
export default fp<CapabilityOptions<AppAnalyticsNeeds, AppAnalytics>>(async function appAnalyticsCapability (fastify, { apps, guards, expose }) {
  const appAnalytics = await startAppAnalytics(fastify)
  expose(appAnalytics)
  await fastify.register(appAnalyticsRoutes, { prefix: PREFIX.developerApps, apps, guards, appAnalytics })
  await fastify.register(liveTailRoutes, { prefix: PREFIX.developerApps, apps, guards })
}, { name: 'app-analytics' })
