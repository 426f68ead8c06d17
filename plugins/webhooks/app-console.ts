import { and, asc, count, desc, eq, not, type SQL } from 'drizzle-orm'
import { webhookAttempts, webhookDeliveries, webhooks } from '../../server/db/schema/index.ts'
import type { Executor } from '../../server/db/client.ts'
import { pageWindow } from '../../server/schemas.ts'
import { databaseNow } from '../../server/clock.ts'
import type { ConsoleWebhookQuery } from '../../sdk/src/contract/console.ts'
import { conflict, notFound } from './errors.ts'
import type { WebhookRow, WebhooksContext } from './context.ts'
import { redeliverOn } from './redelivery.ts'
import { UNINSTALLED_REASON } from './registrations.ts'
import { deliveryPage, present, publicDelivery, sentVersion, type DeliveryFilter } from './views.ts'

// The developer's console: the app's registrations across its installations, and their delivery log.

/** The delivery log across every installation of an app (the developer's console). */
export async function deliveriesOfApp (executor: Executor, appId: string, query: DeliveryFilter) {
  const { rows, total, page, limit, nextCursor } = await deliveryPage(executor, eq(webhookDeliveries.appId, appId), query)
  return { data: rows.map(publicDelivery), total, page, limit, nextCursor }
}

/** A registration of one of the app's installations, test installs included; another app's → 404. */
export async function getOfApp (executor: Executor, appId: string, id: string): Promise<WebhookRow> {
  const [row] = await executor.select().from(webhooks).where(and(eq(webhooks.id, id), eq(webhooks.appId, appId))).limit(1)
  if (row === undefined) throw notFound('webhook_not_found', 'Webhook')
  return row
}

/** The app's registrations across its installations, newest first, each with its installation (sandbox or not, still installed or not). */
export async function listOfApp (context: WebhooksContext, appId: string, query: ConsoleWebhookQuery) {
  const { executor } = context
  const { page, limit, offset } = pageWindow(query)
  const switchedOffByUninstall = and(eq(webhooks.isActive, false), eq(webhooks.disabledReason, UNINSTALLED_REASON))
  const uninstalled = query.uninstalled ?? 'include'
  const where = uninstalled === 'include'
    ? eq(webhooks.appId, appId)
    : and(eq(webhooks.appId, appId), uninstalled === 'only' ? switchedOffByUninstall : not(switchedOffByUninstall as SQL))
  const [registrations, [{ total }]] = await Promise.all([
    executor.select().from(webhooks).where(where).orderBy(desc(webhooks.createdAt), asc(webhooks.id)).limit(limit).offset(offset),
    executor.select({ total: count() }).from(webhooks).where(where)
  ])
  const installation = await context.installations.value.factsOf([...new Set(registrations.map((row) => row.installationId))])
  const shown = await present(context, registrations)
  return {
    data: registrations.map((row, i) => ({
      ...shown[i], installationId: row.installationId, businessId: row.businessId,
      isTestInstall: installation.get(row.installationId)?.isTestInstall ?? false,
      installationActive: installation.get(row.installationId)?.active ?? false
    })),
    total,
    page,
    limit
  }
}

/** One delivery of the app with every attempt: headers as sent, the body rebuilt exactly, the answer's start. */
export async function deliveryOfApp ({ executor, installations, delivery }: WebhooksContext, appId: string, id: string) {
  const [row] = await executor.select().from(webhookDeliveries).where(and(eq(webhookDeliveries.id, id), eq(webhookDeliveries.appId, appId))).limit(1)
  if (row === undefined) throw notFound('delivery_not_found', 'Delivery')
  const [attempts, [webhook], installation] = await Promise.all([
    executor.select().from(webhookAttempts).where(eq(webhookAttempts.deliveryId, row.id)).orderBy(asc(webhookAttempts.attempt), asc(webhookAttempts.createdAt)),
    executor.select({ url: webhooks.url }).from(webhooks).where(eq(webhooks.id, row.webhookId)).limit(1),
    installations.value.factsOf([row.installationId])
  ])
  return {
    ...publicDelivery(row),
    eventId: row.eventId,
    webhookUrl: webhook?.url ?? null,
    isTestInstall: installation.get(row.installationId)?.isTestInstall ?? false,
    // shaped as its attempts sent it: the API version their App-Api-Version header names (2026-11 before versions)
    requestBody: await delivery.engine.bodyFor({ ...row, apiVersion: sentVersion(attempts) }),
    attempts: attempts.map((a) => ({
      attempt: a.attempt, statusCode: a.statusCode, durationMs: a.durationMs, error: a.error, responseSnippet: a.responseSnippet,
      requestHeaders: a.requestHeaders ?? null, nextRetryAt: a.nextRetryAt?.toISOString() ?? null, relayed: a.relayed, createdAt: a.createdAt.toISOString()
    }))
  }
}

export async function redeliverOfApp (context: WebhooksContext, appId: string, deliveryId: string) {
  const { executor } = context
  const [row] = await executor.select({ webhookId: webhookDeliveries.webhookId }).from(webhookDeliveries)
    .where(and(eq(webhookDeliveries.id, deliveryId), eq(webhookDeliveries.appId, appId))).limit(1)
  if (row === undefined) throw notFound('delivery_not_found', 'Delivery')
  const [webhook] = await executor.select().from(webhooks).where(eq(webhooks.id, row.webhookId)).limit(1)
  if (webhook === undefined) throw conflict('webhook_deleted', 'The webhook of this delivery was deleted')
  return await redeliverOn(context, webhook, deliveryId)
}

/** PATCH isActive true from the console: on again, failure count reset. */
export async function reEnableOfApp (context: WebhooksContext, appId: string, id: string) {
  const current = await getOfApp(context.executor, appId, id)
  if (current.isActive) return (await present(context, [current]))[0]
  if (current.disabledReason === UNINSTALLED_REASON) throw conflict('webhook_uninstalled', 'The app was uninstalled from this business; install it again instead')
  const [row] = await context.executor.update(webhooks).set({ isActive: true, disabledReason: null, consecutiveFailures: 0, updatedAt: databaseNow() })
    .where(eq(webhooks.id, current.id)).returning()
  return (await present(context, [row]))[0]
}
