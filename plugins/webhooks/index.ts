import fp from 'fastify-plugin'
import { PREFIX } from '../../server/api-prefixes.ts'
import webhookDelivery from './delivery-plugin.ts'
import webhooksService from './service.ts'
import webhookConsoleRoutes from './console-routes.ts'

/**
 * The app-facing /webhooks routes: mounted by the App API inside its app-token scope, so that one
 * token check and one rate-limit budget per installation cover both (plugins/app-api/index.ts).
 */
export { default as webhookAppRoutes } from './routes.ts'

/** Webhooks: the delivery engine, registrations and their log, and the developer console's webhook pages. */
export default fp(async function webhooksCapability (fastify) {
  await fastify.register(webhookDelivery)
  await fastify.register(webhooksService)
  await fastify.register(webhookConsoleRoutes, { prefix: PREFIX.developerApps })
}, { name: 'webhooks-capability', dependencies: ['auth-guards'] })
