import type { FastifyPluginAsync } from 'fastify'
import { PREFIX } from '../../server/api-prefixes.ts'
import { developerCheckRoutes, reviewCheckRoutes } from './routes.ts'

/** App checks (DESIGN §18): the developer's runs under /developer/apps, the reviewer's view under /review. */
const appChecksRoutes: FastifyPluginAsync = async (fastify) => {
  await fastify.register(developerCheckRoutes, { prefix: PREFIX.developerApps })
  await fastify.register(reviewCheckRoutes, { prefix: PREFIX.review })
}

export default appChecksRoutes
