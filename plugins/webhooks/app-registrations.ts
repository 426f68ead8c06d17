import { and, asc, count, eq, inArray } from 'drizzle-orm'
import { webhookAttempts, webhookDeliveries, webhooks } from '../../server/db/schema/index.ts'
import type { Executor } from '../../server/db/client.ts'
import { newId } from '../../server/db/ids.ts'
import { decryptSecret, encryptSecret, randomWebhookSecret } from '../../server/crypto.ts'
import { EVENT_SCOPES, type EventName } from '../../server/events.ts'
import { pageWindow } from '../../server/schemas.ts'
import { outboundUrlProblem, type OutboundPolicy } from '../../server/url-policy.ts'
import { databaseNow, type DatabaseTime } from '../../server/clock.ts'
import { DEFAULT_SIGNATURE_SCHEME, type SignatureScheme } from '../../sdk/src/contract/events.ts'
import { badRequest, conflict, fieldError, insufficientScope, notFound } from './errors.ts'
import type { CallingInstallation, WebhookRow, WebhooksContext } from './context.ts'
import type { DeliveryQueryType, WebhookCreate, WebhookPatch } from './schemas.ts'
import { deliveryPage, present, publicDelivery, publicWebhook } from './views.ts'

// The calling installation's registrations and their delivery log (the App API); another installation's → 404.

/** Webhook signing secrets; an installation's own secret (its app webhook and hooks) uses the same prefixes. */
export const WEBHOOK_SECRET_PREFIX = { live: 'whsec_', test: 'whsec_test_' } as const

/**
 * The prefix of a secret issued for a scheme: a Standard Webhooks secret is `whsec_` + base64 on test
 * installs too, so the `standardwebhooks` package takes it as given (DESIGN §22; `isTestInstall` tells
 * the installs apart); the spec's scheme keeps the spec's `whsec_test_` marker.
 */
export function webhookSecretPrefix (isTestInstall: boolean, scheme: SignatureScheme): string {
  return WEBHOOK_SECRET_PREFIX[isTestInstall && scheme === 'spec' ? 'test' : 'live']
}

/** A secret the `standardwebhooks` package reads as given: `whsec_` + standard base64, no test marker. */
export const readsAsStandardWebhooksSecret = (secret: string): boolean => /^whsec_[A-Za-z0-9+/]+={0,2}$/.test(secret)
/** Registrations one installation may hold (the spec leaves it open). */
export const MAX_WEBHOOKS_PER_INSTALLATION = 50

/** Unknown event → 400; an event whose scope the installation lacks → 403 naming the scope. */
export function checkEvents (events: string[], installation: CallingInstallation): string[] {
  const unknown = events.filter((event) => !(event in EVENT_SCOPES))
  if (unknown.length > 0) throw badRequest('event_unknown', `Unknown event${unknown.length > 1 ? 's' : ''}: ${unknown.join(', ')}`)
  for (const event of events) {
    const scope = EVENT_SCOPES[event as EventName]
    if (scope === null || installation.scopes.includes(scope)) continue
    throw insufficientScope(installation.pendingScopes.includes(scope) ? 'scope_pending' : 'scope_missing', scope, installation.pendingScopes.includes(scope)
      ? `The event ${event} requires the ${scope} scope, which the merchant has not approved yet (re-consent pending)`
      : `The event ${event} requires the ${scope} scope`)
  }
  return [...new Set(events)]
}

async function checkUrl (outbound: OutboundPolicy, url: string): Promise<void> {
  const problem = await outboundUrlProblem(url, outbound)
  if (problem !== null) throw fieldError('webhook_url_invalid', '/url', problem)
}

export async function get (executor: Executor, installation: CallingInstallation, id: string): Promise<WebhookRow> {
  const [row] = await executor.select().from(webhooks).where(and(eq(webhooks.id, id), eq(webhooks.installationId, installation.id))).limit(1)
  if (row === undefined) throw notFound('webhook_not_found', 'Webhook')
  return row
}

/** One registration of the installation as the API shows it. */
export async function show (context: WebhooksContext, installation: CallingInstallation, id: string) {
  return (await present(context, [await get(context.executor, installation, id)]))[0]
}

export async function create ({ executor, outbound, encryptionKey }: WebhooksContext, installation: CallingInstallation, input: WebhookCreate) {
  const events = checkEvents(input.events, installation)
  await checkUrl(outbound, input.url)
  const signatureScheme = input.signatureScheme ?? DEFAULT_SIGNATURE_SCHEME
  const secret = randomWebhookSecret(webhookSecretPrefix(installation.isTestInstall, signatureScheme))
  const row = await executor.transaction(async (tx) => {
    const [{ n }] = await tx.select({ n: count() }).from(webhooks).where(eq(webhooks.installationId, installation.id))
    if (n >= MAX_WEBHOOKS_PER_INSTALLATION) throw conflict('webhook_limit_reached', `An installation may hold at most ${MAX_WEBHOOKS_PER_INSTALLATION} webhooks`)
    const [inserted] = await tx.insert(webhooks).values({
      id: newId('wh'), installationId: installation.id, appId: installation.appId, businessId: installation.businessId, url: input.url,
      secretEncrypted: encryptSecret(secret, encryptionKey), events, description: input.description ?? '',
      signatureScheme,
      apiVersion: input.apiVersion ?? null
    }).returning()
    return inserted
  })
  return { ...publicWebhook(row), secret }
}

export async function list (context: WebhooksContext, installation: CallingInstallation, query: { page?: number, limit?: number }) {
  const { executor } = context
  const { page, limit, offset } = pageWindow(query)
  const where = eq(webhooks.installationId, installation.id)
  const [rows, [{ total }]] = await Promise.all([
    executor.select().from(webhooks).where(where).orderBy(asc(webhooks.createdAt), asc(webhooks.id)).limit(limit).offset(offset),
    executor.select({ total: count() }).from(webhooks).where(where)
  ])
  return { data: await present(context, rows), total, page, limit }
}

export async function update (context: WebhooksContext, installation: CallingInstallation, id: string, patch: WebhookPatch) {
  const { executor } = context
  const current = await get(executor, installation, id)
  const set: Omit<Partial<typeof webhooks.$inferInsert>, 'updatedAt'> & { updatedAt: DatabaseTime } = { updatedAt: databaseNow() }
  if (patch.events !== undefined) set.events = checkEvents(patch.events, installation)
  if (patch.url !== undefined) {
    await checkUrl(context.outbound, patch.url)
    set.url = patch.url
  }
  if (patch.description !== undefined) set.description = patch.description
  if (patch.signatureScheme !== undefined) {
    if (current.isAppWebhook) throw fieldError('webhook_signature_fixed', '/signatureScheme', "the app's own webhook is signed as the app's webhookSignatureScheme says; change it in the app's settings")
    set.signatureScheme = patch.signatureScheme
  }
  // a test install's spec secret (whsec_test_…) cannot be read by Standard Webhooks libraries: the switch issues a new
  // secret, shown once in this answer, as a secret roll does (docs/decisions.md); a secret they read stays as it is
  let secret: string | undefined
  if (patch.signatureScheme === 'standard-webhooks' && !readsAsStandardWebhooksSecret(decryptSecret(current.secretEncrypted, context.encryptionKey))) {
    secret = randomWebhookSecret(webhookSecretPrefix(installation.isTestInstall, 'standard-webhooks'))
    set.secretEncrypted = encryptSecret(secret, context.encryptionKey)
  }
  if (patch.apiVersion !== undefined) set.apiVersion = patch.apiVersion
  if (patch.isActive === true && !current.isActive) Object.assign(set, { isActive: true, disabledReason: null, consecutiveFailures: 0 })
  if (patch.isActive === false && current.isActive) Object.assign(set, { isActive: false, disabledReason: 'Disabled by the app' })
  const [row] = await executor.update(webhooks).set(set).where(and(eq(webhooks.id, current.id), eq(webhooks.installationId, installation.id))).returning()
  const [presented] = await present(context, [row])
  return secret === undefined ? presented : { ...presented, secret }
}

/** The log is kept; deliveries still waiting end as failed. */
export async function remove (executor: Executor, installation: CallingInstallation, id: string): Promise<void> {
  const current = await get(executor, installation, id)
  await executor.transaction(async (tx) => {
    await tx.update(webhookDeliveries).set({ status: 'FAILED', lastError: 'Webhook deleted', nextAttemptAt: null, lockedUntil: null, completedAt: databaseNow() })
      .where(and(eq(webhookDeliveries.webhookId, current.id), eq(webhookDeliveries.status, 'PENDING')))
    await tx.delete(webhooks).where(eq(webhooks.id, current.id))
  })
}

export async function deliveries (executor: Executor, installation: CallingInstallation, id: string, query: DeliveryQueryType) {
  const webhook = await get(executor, installation, id)
  const { rows, total, page, limit } = await deliveryPage(executor, eq(webhookDeliveries.webhookId, webhook.id), query)
  const attempts = rows.length === 0
    ? []
    : await executor.select().from(webhookAttempts).where(inArray(webhookAttempts.deliveryId, rows.map((r) => r.id))).orderBy(asc(webhookAttempts.attempt))
  return {
    data: rows.map((row) => ({
      ...publicDelivery(row),
      attempts: attempts.filter((a) => a.deliveryId === row.id).map((a) => ({
        attempt: a.attempt, statusCode: a.statusCode, durationMs: a.durationMs, error: a.error, responseSnippet: a.responseSnippet,
        createdAt: a.createdAt.toISOString()
      }))
    })),
    total,
    page,
    limit
  }
}
