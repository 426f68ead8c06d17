import fp from 'fastify-plugin'
import type { Executor } from '../../server/db/client.ts'
import { bindExecutor, bindTo } from '../../server/db/bind.ts'
import { provided, requireProvided, type Provided } from '../../server/providers.ts'
import { deliveriesOfApp, deliveryOfApp, getOfApp, listOfApp, redeliverOfApp, reEnableOfApp } from './app-console.ts'
import { create, deliveries, get, list, remove, show, update } from './app-registrations.ts'
import type { InstallationFacts, WebhookServiceDeps } from './context.ts'
import { redeliver, replay, replayOn, test, testOn } from './redelivery.ts'
import { createForInstallation, deactivateFor, recentDeliveriesOf, registrationsOf, setAppWebhookEvents } from './registrations.ts'

// How deliveries are signed, for other capabilities that send as the webhook engine does (app checks)
export { deliveryHeaders, envelopeBody, type Envelope } from './signing.ts'
export { checkEvents, MAX_WEBHOOKS_PER_INSTALLATION, webhookSecretPrefix } from './app-registrations.ts'
export type { CallingInstallation, InstallationFacts, WebhookRow, WebhookServiceDeps } from './context.ts'
export { MAX_REPLAY, REPLAY_COUNT_LIMIT } from './redelivery.ts'
export { deliveryPage, publicDelivery, publicWebhook, type DeliveryFilter } from './views.ts'

/** What installations ask of webhooks: the app's own registration follows the installation. */
const installationFunctions = { createForInstallation, setAppWebhookEvents, deactivateFor, registrationsOf, recentDeliveriesOf }

declare module 'fastify' {
  interface FastifyInstance {
    /** Webhook registrations and their delivery log: the only writer of webhooks, deliveries and attempts. */
    webhooks: Webhooks
    /** The interfaces webhooks asks through, provided by capabilities that boot after it (installations). */
    webhookProviders: { installations: Provided<InstallationFacts> }
  }
}

/**
 * The app-facing service (the calling installation's registrations and log; another installation's → 404),
 * the developer console's (the app's registrations across its installations), plus what installations ask
 * of it, over the database; `in(tx)` offers installations' part over a caller's transaction.
 */
export function createWebhooks (deps: WebhookServiceDeps) {
  const context = { ...deps, executor: deps.db }
  return {
    ...bindExecutor(deps.db, { get, remove, deliveries, deliveriesOfApp, getOfApp }),
    ...bindTo(context, { show, create, list, update, redeliver, replay, test, listOfApp, deliveryOfApp, redeliverOfApp, reEnableOfApp, replayOn, testOn }),
    ...bindExecutor(deps.db, installationFunctions),
    in: (tx: Executor) => bindExecutor(tx, installationFunctions)
  }
}

export type Webhooks = ReturnType<typeof createWebhooks>

export default fp(async function webhooksService (fastify) {
  const providers = { installations: provided<InstallationFacts>('webhooks installation facts (installations)') }
  fastify.decorate('webhookProviders', providers)
  requireProvided(fastify, 'webhooks', providers)
  fastify.decorate('webhooks', createWebhooks({
    db: fastify.db,
    encryptionKey: fastify.config.encryptionKey,
    outbound: fastify.outbound,
    delivery: fastify.webhookDelivery,
    appSignatureScheme: async (appId) => (await fastify.apps.findById(appId))?.webhookSignatureScheme,
    installations: providers.installations
  }))
}, { name: 'webhooks', dependencies: ['db', 'config', 'outbound', 'webhook-delivery', 'apps'] })
