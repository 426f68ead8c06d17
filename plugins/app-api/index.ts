import type { FastifyPluginAsync } from 'fastify'
import { registerAppRateLimit } from './rate-limit.ts'
import appApiRoutes from './routes.ts'
import webhookRoutes from '../webhooks/routes.ts'

/**
 * Everything an app calls with its access token: /app-api and /webhooks share this context, so one
 * token check and one rate-limit budget per installation cover both.
 */
const appScope: FastifyPluginAsync = async (fastify) => {
  fastify.addHook('onRequest', fastify.requireAppToken)
  await registerAppRateLimit(fastify)
  await fastify.register(appApiRoutes, { prefix: '/app-api' })
  await fastify.register(webhookRoutes, { prefix: '/webhooks' })
}

export default appScope
