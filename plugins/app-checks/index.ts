import fp from 'fastify-plugin'
import { PREFIX } from '../../server/api-prefixes.ts'
import appChecksService from './service.ts'
import { developerCheckRoutes, reviewCheckRoutes } from './routes.ts'

/** App checks (DESIGN §18): the runner, the developer's runs under /developer/apps, the reviewer's view under /review. */
export default fp(async function appChecksCapability (fastify) {
  await fastify.register(appChecksService)
  await fastify.register(developerCheckRoutes, { prefix: PREFIX.developerApps })
  await fastify.register(reviewCheckRoutes, { prefix: PREFIX.review })
}, { name: 'app-checks-capability', dependencies: ['auth-guards'] })
