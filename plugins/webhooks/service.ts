import type { FastifyInstance } from 'fastify'
import type { Apps } from '../apps/index.ts'
import type { Guards } from '../auth/guards.ts'
import type { Commerce } from '../commerce/index.ts'
import { startWebhookDelivery, type WebhookDelivery, type WebhookDeliveryNeeds } from './delivery-start.ts'
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

/**
 * Webhooks' port (server/capability.ts): registrations and their delivery log (the only writer of
 * webhooks, deliveries and attempts), the delivery engine, and the interface it asks installations
 * through (provided at installations' boot).
 */
export interface WebhooksPort extends Webhooks {
  delivery: WebhookDelivery
  providers: { installations: Provided<InstallationFacts> }
}

/** What webhooks needs of the others. */
export interface WebhooksNeeds extends WebhookDeliveryNeeds {
  /** a business's currency (the delivery engine) and the stores' names (the console) */
  commerce: Pick<Commerce, 'getBusinessProfile' | 'businessNamesOf'>
  apps: Pick<Apps, 'findById' | 'ownedApp'>
  guards: Pick<Guards, 'requireRole'>
}

/** The delivery engine, then the service over it. */
export async function startWebhooks (fastify: FastifyInstance, needs: WebhooksNeeds): Promise<WebhooksPort> {
  const providers = { installations: provided<InstallationFacts>('webhooks installation facts (installations)') }
  requireProvided(fastify, 'webhooks', providers)
  const delivery = await startWebhookDelivery(fastify, needs)
  const service = createWebhooks({
    db: fastify.db,
    encryptionKey: fastify.config.encryptionKey,
    outbound: fastify.outbound,
    delivery,
    appSignatureScheme: async (appId) => (await needs.apps.findById(appId))?.webhookSignatureScheme,
    installations: providers.installations
  })
  return { ...service, delivery, providers }
}
