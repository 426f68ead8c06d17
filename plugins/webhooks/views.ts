import { and, eq, gte, lt, type SQL } from 'drizzle-orm'
import { webhookDeliveries } from '../../server/db/schema/index.ts'
import type { Executor } from '../../server/db/client.ts'
import { logPage } from '../../server/db/rows.ts'
import type { SignatureScheme } from '../../sdk/src/contract/events.ts'
import { API_VERSION_HEADER, DOMAIN_API_VERSION, isApiVersion, type ApiVersion } from '../../sdk/src/contract/api-versions.ts'
import type { DeliveryRow, WebhookRow, WebhooksContext } from './context.ts'

/** `appScheme`: the app's webhookSignatureScheme, which its own registration follows (DESIGN §21). */
export function publicWebhook (row: WebhookRow, appScheme?: SignatureScheme) {
  return {
    id: row.id, url: row.url, events: row.events, description: row.description, isActive: row.isActive, disabledReason: row.disabledReason,
    consecutiveFailures: row.consecutiveFailures, isAppWebhook: row.isAppWebhook,
    signatureScheme: row.isAppWebhook ? appScheme ?? row.signatureScheme : row.signatureScheme,
    apiVersion: row.apiVersion as ApiVersion | null,
    createdAt: row.createdAt.toISOString(), updatedAt: row.updatedAt.toISOString()
  }
}

/** Registrations (all of one app) as the API shows them: the app's own one with the app's signature scheme. */
export async function present ({ appSignatureScheme }: Pick<WebhooksContext, 'appSignatureScheme'>, rows: WebhookRow[]) {
  let appScheme: SignatureScheme | undefined
  const own = rows.find((row) => row.isAppWebhook)
  if (own !== undefined) {
    appScheme = await appSignatureScheme(own.appId)
  }
  return rows.map((row) => publicWebhook(row, appScheme))
}

export interface DeliveryFilter {
  page?: number, limit?: number, status?: 'PENDING' | 'SUCCEEDED' | 'FAILED', event?: string
  /** One registration, and a window of creation times [from, to) */
  webhookId?: string, from?: string, to?: string
  /** The console's keyset cursor (the previous page's nextCursor): replaces the page's offset */
  before?: string
}

/** The API version a delivery's attempts were shaped for, by the header the newest one sent; the first version's before there were versions. */
export function sentVersion (attempts: Array<{ requestHeaders: Record<string, string> | null }>): ApiVersion {
  const named = attempts.map((attempt) => attempt.requestHeaders?.[API_VERSION_HEADER.toLowerCase()]).filter((value) => value !== undefined).at(-1)
  return named !== undefined && isApiVersion(named) ? named : DOMAIN_API_VERSION
}

/** One page of the delivery log within `scope` (a registration or an app), newest first, with its total. */
export async function deliveryPage (executor: Executor, scope: SQL, query: DeliveryFilter) {
  const filters: SQL[] = [scope]
  if (query.status !== undefined) filters.push(eq(webhookDeliveries.status, query.status))
  if (query.event !== undefined) filters.push(eq(webhookDeliveries.event, query.event))
  if (query.webhookId !== undefined) filters.push(eq(webhookDeliveries.webhookId, query.webhookId))
  if (query.from !== undefined) filters.push(gte(webhookDeliveries.createdAt, new Date(query.from)))
  if (query.to !== undefined) filters.push(lt(webhookDeliveries.createdAt, new Date(query.to)))
  return await logPage(executor, webhookDeliveries, and(...filters), query)
}

export function publicDelivery (row: DeliveryRow) {
  return {
    id: row.id, webhookId: row.webhookId, installationId: row.installationId, businessId: row.businessId, event: row.event, status: row.status,
    attemptCount: row.attempts, lastStatusCode: row.lastStatusCode, lastError: row.lastError, lastDurationMs: row.lastDurationMs,
    nextAttemptAt: row.status === 'PENDING' ? row.nextAttemptAt?.toISOString() ?? null : null,
    createdAt: row.createdAt.toISOString(), completedAt: row.completedAt?.toISOString() ?? null
  }
}
