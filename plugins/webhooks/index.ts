import fp from 'fastify-plugin'
import { PREFIX } from '../../server/api-prefixes.ts'
import type { CapabilityOptions } from '../../server/capability.ts'
import { startWebhooks, type WebhooksNeeds, type WebhooksPort } from './service.ts'
import webhookConsoleRoutes from './console-routes.ts'

export type { WebhooksNeeds, WebhooksPort }

/**
 * The app-facing /webhooks routes: mounted by the App API inside its app-token scope, so that one
 * token check and one rate-limit budget per installation cover both (plugins/app-api/index.ts).
 */
export { default as webhookAppRoutes } from './routes.ts'

/** Webhooks: the delivery engine, registrations and their log, and the developer console's webhook pages. */
export default fp<CapabilityOptions<WebhooksNeeds, WebhooksPort>>(async function webhooksCapability (fastify, { expose, ...needs }) {
  const webhooks = await startWebhooks(fastify, needs)
  expose(webhooks)
  await fastify.register(webhookConsoleRoutes, { prefix: PREFIX.developerApps, apps: needs.apps, commerce: needs.commerce, guards: needs.guards, webhooks })
}, { name: 'webhooks' })
