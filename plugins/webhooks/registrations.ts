import { and, desc, eq } from 'drizzle-orm'
import { webhookDeliveries, webhooks } from '../../server/db/schema/index.ts'
import type { Executor } from '../../server/db/client.ts'
import { newId } from '../../server/db/ids.ts'
import { databaseNow } from '../../server/clock.ts'

/** What the installations capability asks of webhooks: the app's own registration follows the installation. */

export interface AppWebhookInput { installationId: string, appId: string, businessId: string, url: string, secretEncrypted: string, events: string[] }

/** The app's own registration (from its webhookUrl), signed with the installation's webhook secret. */
export async function createForInstallation (executor: Executor, input: AppWebhookInput): Promise<void> {
  await executor.insert(webhooks).values({ id: newId('wh'), ...input, description: 'App webhook (from the app settings)', isAppWebhook: true })
}

/** The events of the app's own registration, after the granted scopes changed. */
export async function setAppWebhookEvents (executor: Executor, installationId: string, events: string[]): Promise<void> {
  await executor.update(webhooks).set({ events, updatedAt: databaseNow() })
    .where(and(eq(webhooks.installationId, installationId), eq(webhooks.isAppWebhook, true)))
}

/** The reason an uninstall leaves on the registrations: re-enabling one makes no sense. */
export const UNINSTALLED_REASON = 'App uninstalled'

/** Uninstall: every registration of the installation stops receiving events. */
export async function deactivateFor (executor: Executor, installationId: string): Promise<void> {
  await executor.update(webhooks).set({ isActive: false, disabledReason: UNINSTALLED_REASON, updatedAt: databaseNow() })
    .where(eq(webhooks.installationId, installationId))
}

export async function registrationsOf (executor: Executor, installationId: string) {
  return await executor.select().from(webhooks).where(eq(webhooks.installationId, installationId))
}

export async function recentDeliveriesOf (executor: Executor, installationId: string, limit: number) {
  return await executor.select().from(webhookDeliveries).where(eq(webhookDeliveries.installationId, installationId))
    .orderBy(desc(webhookDeliveries.createdAt)).limit(limit)
}
