import type { webhookDeliveries, webhooks } from '../../server/db/schema/index.ts'
import type { Db, Executor } from '../../server/db/client.ts'
import type { Provided } from '../../server/providers.ts'
import type { OutboundPolicy } from '../../server/url-policy.ts'
import type { SignatureScheme } from '../../sdk/src/contract/events.ts'
import type { WebhookDelivery } from './delivery-start.ts'

export type WebhookRow = typeof webhooks.$inferSelect
export type DeliveryRow = typeof webhookDeliveries.$inferSelect

/** The calling installation, as the app-token check caches it. */
export interface CallingInstallation { id: string, appId: string, businessId: string, scopes: string[], pendingScopes: string[], isTestInstall: boolean }

/** What the console's webhook pages ask of installations (which depends on webhooks, so provides this at its boot). */
export interface InstallationFacts {
  /** The given installations (uninstalled ones included) that exist: a test install? still installed? */
  factsOf: (ids: string[]) => Promise<Map<string, { isTestInstall: boolean, active: boolean }>>
}

export interface WebhookServiceDeps {
  db: Db
  encryptionKey: Buffer
  outbound: OutboundPolicy
  delivery: WebhookDelivery
  /** The app's webhookSignatureScheme, which its own webhook follows (asked of the apps capability, which owns it). */
  appSignatureScheme: (appId: string) => Promise<SignatureScheme | undefined>
  /** Whether installations are test installs and still installed: installations provides it at its boot. */
  installations: Provided<InstallationFacts>
}

/** What the webhooks' functions that need more than the executor run against: the executor and the capability's dependencies. */
export interface WebhooksContext extends WebhookServiceDeps { executor: Executor }
