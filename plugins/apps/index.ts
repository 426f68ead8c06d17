import fp from 'fastify-plugin'
import { PREFIX } from '../../server/api-prefixes.ts'
import appsService from './service.ts'
import appsRoutes from './routes.ts'
import manifestRoutes from './manifest/routes.ts'
import reviewRoutes from './review-routes.ts'
import { mediaRoutes } from './media.ts'

/** Apps: the developer's apps, their manifest, versions and media, and the review. */
export default fp(async function appsCapability (fastify) {
  await fastify.register(appsService)
  await fastify.register(appsRoutes, { prefix: PREFIX.developerApps })
  await fastify.register(manifestRoutes, { prefix: PREFIX.developerApps })
  await fastify.register(mediaRoutes, { prefix: PREFIX.media })
  await fastify.register(reviewRoutes, { prefix: PREFIX.review })
}, { name: 'apps-capability', dependencies: ['auth-guards'] })
