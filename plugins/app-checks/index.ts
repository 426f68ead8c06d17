import fp from 'fastify-plugin'
import { PREFIX } from '../../server/api-prefixes.ts'
import type { CapabilityOptions } from '../../server/capability.ts'
import { startAppChecks, type AppChecks, type AppChecksNeeds } from './service.ts'
import { developerCheckRoutes, reviewCheckRoutes } from './routes.ts'

export type { AppChecks, AppChecksNeeds }

/** App checks (DESIGN §18): the runner, the developer's runs under /developer/apps, the reviewer's view under /review. */
export default fp<CapabilityOptions<AppChecksNeeds, AppChecks>>(async function appChecksCapability (fastify, { expose, ...needs }) {
  const appChecks = await startAppChecks(fastify, needs)
  expose(appChecks)
  await fastify.register(developerCheckRoutes, { prefix: PREFIX.developerApps, apps: needs.apps, guards: needs.guards, appChecks })
  await fastify.register(reviewCheckRoutes, { prefix: PREFIX.review, apps: needs.apps, guards: needs.guards, appChecks })
}, { name: 'app-checks' })
