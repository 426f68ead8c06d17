import type { FastifyPluginAsync } from 'fastify'
import { BUILT_IN_PIPELINE } from '../merchant/checkout-service.ts'
import { registerAppRateLimit } from './rate-limit.ts'
import appApiRoutes from './routes.ts'

/**
 * Everything an app calls with its access token: /app-api and /webhooks share this context, so one
 * token check and one rate-limit budget per installation cover both.
 */
const appScope: FastifyPluginAsync = async (fastify) => {
  fastify.addHook('onRequest', fastify.requireAppToken)
  await registerAppRateLimit(fastify)
  // The one place that chooses the checkout pipeline of App API guest orders
  await fastify.register(appApiRoutes, { prefix: '/app-api', checkoutPipeline: () => BUILT_IN_PIPELINE })
}

export default appScope
