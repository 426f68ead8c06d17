import fp from 'fastify-plugin'
import { PREFIX } from '../../server/api-prefixes.ts'
import type { CapabilityOptions } from '../../server/capability.ts'
import { startApps, type Apps, type AppsNeeds, type AppsRouteOptions } from './service.ts'
import appsRoutes from './routes.ts'
import manifestRoutes from './manifest/routes.ts'
import reviewRoutes from './review-routes.ts'
import { mediaRoutes } from './media.ts'

export type { Apps, AppsNeeds }

/** Apps: the developer's apps, their manifest, versions and media, and the review. */
export default fp<CapabilityOptions<AppsNeeds, Apps>>(async function appsCapability (fastify, { auth, guards, expose }) {
  const apps = startApps(fastify)
  expose(apps)
  const options: AppsRouteOptions = { apps, auth, guards }
  await fastify.register(appsRoutes, { prefix: PREFIX.developerApps, ...options })
  await fastify.register(manifestRoutes, { prefix: PREFIX.developerApps, ...options })
  await fastify.register(mediaRoutes, { prefix: PREFIX.media, apps })
  await fastify.register(reviewRoutes, { prefix: PREFIX.review, ...options })
}, { name: 'apps' })
