import { and, asc, count, desc, eq, gte, inArray, lt, not, sql, type SQL } from 'drizzle-orm'
import { webhookAttempts, webhookDeliveries, webhooks } from '../../server/db/schema/index.ts'
import { DEFAULT_SIGNATURE_SCHEME, type SignatureScheme } from '../../sdk/src/contract/events.ts'
import { API_VERSION_HEADER, BASE_API_VERSION, isApiVersion, type ApiVersion } from '../../sdk/src/contract/api-versions.ts'
import type { Db } from '../../server/db/client.ts'
import { newId } from '../../server/db/ids.ts'
import { encryptSecret, randomWebhookSecret } from '../../server/crypto.ts'
import { EVENT_SCOPES, type EventName } from '../../server/events.ts'
import { badRequest, conflict, fieldError, insufficientScope, notFound } from './errors.ts'
import { pageWindow } from '../../server/schemas.ts'
import { currentTraceParent } from '../../server/telemetry.ts'
import { outboundUrlProblem, type OutboundPolicy } from '../../server/url-policy.ts'
import fp from 'fastify-plugin'
import { provided, requireProvided, type Provided } from '../../server/providers.ts'
import { bindExecutor } from '../../server/db/bind.ts'
import type { Executor } from '../../server/db/client.ts'
import { logPage } from '../../server/db/rows.ts'
import { createForInstallation, deactivateFor, recentDeliveriesOf, registrationsOf, setAppWebhookEvents, UNINSTALLED_REASON } from './registrations.ts'
import type { DeliveryQueryType, WebhookCreate, WebhookPatch } from './schemas.ts'
import type { ConsoleWebhookQuery } from '../../sdk/src/contract/console.ts'
import type { WebhookDelivery } from './delivery-plugin.ts'
import { databaseNow } from '../../server/clock.ts'

/** Registrations one installation may hold (the spec leaves it open). */
// How deliveries are signed, for other capabilities that send as the webhook engine does (app checks)
export { deliveryHeaders, envelopeBody, type Envelope } from './signing.ts'

/** Webhook signing secrets; an installation's own secret (its app webhook and hooks) uses the same prefixes. */
export const WEBHOOK_SECRET_PREFIX = { live: 'whsec_', test: 'whsec_test_' } as const
export const MAX_WEBHOOKS_PER_INSTALLATION = 50

/** The calling installation, as the app-token check caches it. */
export interface CallingInstallation { id: string, appId: string, businessId: string, scopes: string[], pendingScopes: string[], isTestInstall: boolean }
/** Deliveries one replay may re-send. */
/** Deliveries one replay call queues at most; the answer says how many are left and from when to go on. */
export const MAX_REPLAY = 1000
/** How many matching deliveries past its own 1 000 a replay counts exactly (`remaining`); beyond, `remainingExact` is false. */
export const REPLAY_COUNT_LIMIT = 10_000

export type WebhookRow = typeof webhooks.$inferSelect
type DeliveryRow = typeof webhookDeliveries.$inferSelect

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

export interface DeliveryFilter {
  page?: number, limit?: number, status?: 'PENDING' | 'SUCCEEDED' | 'FAILED', event?: string
  /** One registration, and a window of creation times [from, to) */
  webhookId?: string, from?: string, to?: string
  /** The console's keyset cursor (the previous page's nextCursor): replaces the page's offset */
  before?: string
}

/** The API version a delivery's attempts were shaped for, by the header the newest one sent; the base version before there were versions. */
function sentVersion (attempts: Array<{ requestHeaders: Record<string, string> | null }>): ApiVersion {
  const named = attempts.map((attempt) => attempt.requestHeaders?.[API_VERSION_HEADER.toLowerCase()]).filter((value) => value !== undefined).at(-1)
  return named !== undefined && isApiVersion(named) ? named : BASE_API_VERSION
}

/** One page of the delivery log within `scope` (a registration or an app), newest first, with its total. */
export async function deliveryPage (db: Db, scope: SQL, query: DeliveryFilter) {
  const filters: SQL[] = [scope]
  if (query.status !== undefined) filters.push(eq(webhookDeliveries.status, query.status))
  if (query.event !== undefined) filters.push(eq(webhookDeliveries.event, query.event))
  if (query.webhookId !== undefined) filters.push(eq(webhookDeliveries.webhookId, query.webhookId))
  if (query.from !== undefined) filters.push(gte(webhookDeliveries.createdAt, new Date(query.from)))
  if (query.to !== undefined) filters.push(lt(webhookDeliveries.createdAt, new Date(query.to)))
  return await logPage(db, webhookDeliveries, and(...filters), query)
}

export function publicDelivery (row: DeliveryRow) {
  return {
    id: row.id, webhookId: row.webhookId, installationId: row.installationId, businessId: row.businessId, event: row.event, status: row.status,
    attemptCount: row.attempts, lastStatusCode: row.lastStatusCode, lastError: row.lastError, lastDurationMs: row.lastDurationMs,
    nextAttemptAt: row.status === 'PENDING' ? row.nextAttemptAt?.toISOString() ?? null : null,
    createdAt: row.createdAt.toISOString(), completedAt: row.completedAt?.toISOString() ?? null
  }
}

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

/** What the console's webhook pages ask of installations (which depends on webhooks, so provides this at its boot). */
export interface InstallationFacts {
  /** The given installations (uninstalled ones included) that exist: a test install? still installed? */
  factsOf: (ids: string[]) => Promise<Map<string, { isTestInstall: boolean, active: boolean }>>
}

/** Registrations of the calling installation and their delivery log; another installation's → 404. */
export function createWebhookService (deps: WebhookServiceDeps) {
  const { db } = deps

  /** Registrations (all of one app) as the API shows them: the app's own one with the app's signature scheme. */
  async function present (rows: WebhookRow[]) {
    let appScheme: SignatureScheme | undefined
    const own = rows.find((row) => row.isAppWebhook)
    if (own !== undefined) {
      appScheme = await deps.appSignatureScheme(own.appId)
    }
    return rows.map((row) => publicWebhook(row, appScheme))
  }

  /** The delivery log across every installation of an app (the developer's console). */
  async function deliveriesOfApp (appId: string, query: DeliveryFilter) {
    const { rows, total, page, limit, nextCursor } = await deliveryPage(db, eq(webhookDeliveries.appId, appId), query)
    return { data: rows.map(publicDelivery), total, page, limit, nextCursor }
  }

  /** A registration of one of the app's installations, test installs included; another app's → 404. */
  async function getOfApp (appId: string, id: string): Promise<WebhookRow> {
    const [row] = await db.select().from(webhooks).where(and(eq(webhooks.id, id), eq(webhooks.appId, appId))).limit(1)
    if (row === undefined) throw notFound('webhook_not_found', 'Webhook')
    return row
  }

  /** The app's registrations across its installations, newest first, each with its installation (sandbox or not, still installed or not). */
  async function listOfApp (appId: string, query: ConsoleWebhookQuery) {
    const { page, limit, offset } = pageWindow(query)
    const switchedOffByUninstall = and(eq(webhooks.isActive, false), eq(webhooks.disabledReason, UNINSTALLED_REASON))
    const uninstalled = query.uninstalled ?? 'include'
    const where = uninstalled === 'include'
      ? eq(webhooks.appId, appId)
      : and(eq(webhooks.appId, appId), uninstalled === 'only' ? switchedOffByUninstall : not(switchedOffByUninstall as SQL))
    const [registrations, [{ total }]] = await Promise.all([
      db.select().from(webhooks).where(where).orderBy(desc(webhooks.createdAt), asc(webhooks.id)).limit(limit).offset(offset),
      db.select({ total: count() }).from(webhooks).where(where)
    ])
    const installation = await deps.installations.value.factsOf([...new Set(registrations.map((row) => row.installationId))])
    const shown = await present(registrations)
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
  async function deliveryOfApp (appId: string, id: string) {
    const [row] = await db.select().from(webhookDeliveries).where(and(eq(webhookDeliveries.id, id), eq(webhookDeliveries.appId, appId))).limit(1)
    if (row === undefined) throw notFound('delivery_not_found', 'Delivery')
    const [attempts, [webhook], installation] = await Promise.all([
      db.select().from(webhookAttempts).where(eq(webhookAttempts.deliveryId, row.id)).orderBy(asc(webhookAttempts.attempt), asc(webhookAttempts.createdAt)),
      db.select({ url: webhooks.url }).from(webhooks).where(eq(webhooks.id, row.webhookId)).limit(1),
      deps.installations.value.factsOf([row.installationId])
    ])
    return {
      ...publicDelivery(row),
      eventId: row.eventId,
      webhookUrl: webhook?.url ?? null,
      isTestInstall: installation.get(row.installationId)?.isTestInstall ?? false,
      // shaped as its attempts sent it: the API version their App-Api-Version header names (2026-11 before versions)
      requestBody: await deps.delivery.engine.bodyFor({ ...row, apiVersion: sentVersion(attempts) }),
      attempts: attempts.map((a) => ({
        attempt: a.attempt, statusCode: a.statusCode, durationMs: a.durationMs, error: a.error, responseSnippet: a.responseSnippet,
        requestHeaders: a.requestHeaders ?? null, nextRetryAt: a.nextRetryAt?.toISOString() ?? null, relayed: a.relayed, createdAt: a.createdAt.toISOString()
      }))
    }
  }

  async function redeliverOfApp (appId: string, deliveryId: string) {
    const [row] = await db.select({ webhookId: webhookDeliveries.webhookId }).from(webhookDeliveries)
      .where(and(eq(webhookDeliveries.id, deliveryId), eq(webhookDeliveries.appId, appId))).limit(1)
    if (row === undefined) throw notFound('delivery_not_found', 'Delivery')
    const [webhook] = await db.select().from(webhooks).where(eq(webhooks.id, row.webhookId)).limit(1)
    if (webhook === undefined) throw conflict('webhook_deleted', 'The webhook of this delivery was deleted')
    return await redeliverOn(webhook, deliveryId)
  }

  /** PATCH isActive true from the console: on again, failure count reset. */
  async function reEnableOfApp (appId: string, id: string) {
    const current = await getOfApp(appId, id)
    if (current.isActive) return (await present([current]))[0]
    if (current.disabledReason === UNINSTALLED_REASON) throw conflict('webhook_uninstalled', 'The app was uninstalled from this business; install it again instead')
    const [row] = await db.update(webhooks).set({ isActive: true, disabledReason: null, consecutiveFailures: 0, updatedAt: databaseNow() })
      .where(eq(webhooks.id, current.id)).returning()
    return (await present([row]))[0]
  }

  async function checkUrl (url: string): Promise<void> {
    const problem = await outboundUrlProblem(url, deps.outbound)
    if (problem !== null) throw fieldError('webhook_url_invalid', '/url', problem)
  }

  async function get (installation: CallingInstallation, id: string): Promise<WebhookRow> {
    const [row] = await db.select().from(webhooks).where(and(eq(webhooks.id, id), eq(webhooks.installationId, installation.id))).limit(1)
    if (row === undefined) throw notFound('webhook_not_found', 'Webhook')
    return row
  }

  async function create (installation: CallingInstallation, input: WebhookCreate) {
    const events = checkEvents(input.events, installation)
    await checkUrl(input.url)
    const secret = randomWebhookSecret(WEBHOOK_SECRET_PREFIX[installation.isTestInstall ? 'test' : 'live'])
    const row = await db.transaction(async (tx) => {
      const [{ n }] = await tx.select({ n: count() }).from(webhooks).where(eq(webhooks.installationId, installation.id))
      if (n >= MAX_WEBHOOKS_PER_INSTALLATION) throw conflict('webhook_limit_reached', `An installation may hold at most ${MAX_WEBHOOKS_PER_INSTALLATION} webhooks`)
      const [inserted] = await tx.insert(webhooks).values({
        id: newId('wh'), installationId: installation.id, appId: installation.appId, businessId: installation.businessId, url: input.url,
        secretEncrypted: encryptSecret(secret, deps.encryptionKey), events, description: input.description ?? '',
        signatureScheme: input.signatureScheme ?? DEFAULT_SIGNATURE_SCHEME,
        apiVersion: input.apiVersion ?? null
      }).returning()
      return inserted
    })
    return { ...publicWebhook(row), secret }
  }

  async function list (installation: CallingInstallation, query: { page?: number, limit?: number }) {
    const { page, limit, offset } = pageWindow(query)
    const where = eq(webhooks.installationId, installation.id)
    const [rows, [{ total }]] = await Promise.all([
      db.select().from(webhooks).where(where).orderBy(asc(webhooks.createdAt), asc(webhooks.id)).limit(limit).offset(offset),
      db.select({ total: count() }).from(webhooks).where(where)
    ])
    return { data: await present(rows), total, page, limit }
  }

  async function update (installation: CallingInstallation, id: string, patch: WebhookPatch) {
    const current = await get(installation, id)
    const set: Partial<typeof webhooks.$inferInsert> = { updatedAt: databaseNow() }
    if (patch.events !== undefined) set.events = checkEvents(patch.events, installation)
    if (patch.url !== undefined) {
      await checkUrl(patch.url)
      set.url = patch.url
    }
    if (patch.description !== undefined) set.description = patch.description
    if (patch.signatureScheme !== undefined) {
      if (current.isAppWebhook) throw fieldError('webhook_signature_fixed', '/signatureScheme', "the app's own webhook is signed as the app's webhookSignatureScheme says; change it in the app's settings")
      set.signatureScheme = patch.signatureScheme
    }
    if (patch.apiVersion !== undefined) set.apiVersion = patch.apiVersion
    if (patch.isActive === true && !current.isActive) Object.assign(set, { isActive: true, disabledReason: null, consecutiveFailures: 0 })
    if (patch.isActive === false && current.isActive) Object.assign(set, { isActive: false, disabledReason: 'Disabled by the app' })
    const [row] = await db.update(webhooks).set(set).where(and(eq(webhooks.id, current.id), eq(webhooks.installationId, installation.id))).returning()
    return (await present([row]))[0]
  }

  /** The log is kept; deliveries still waiting end as failed. */
  async function remove (installation: CallingInstallation, id: string): Promise<void> {
    const current = await get(installation, id)
    await db.transaction(async (tx) => {
      await tx.update(webhookDeliveries).set({ status: 'FAILED', lastError: 'Webhook deleted', nextAttemptAt: null, lockedUntil: null, completedAt: databaseNow() })
        .where(and(eq(webhookDeliveries.webhookId, current.id), eq(webhookDeliveries.status, 'PENDING')))
      await tx.delete(webhooks).where(eq(webhooks.id, current.id))
    })
  }

  async function deliveries (installation: CallingInstallation, id: string, query: DeliveryQueryType) {
    const webhook = await get(installation, id)
    const { rows, total, page, limit } = await deliveryPage(db, eq(webhookDeliveries.webhookId, webhook.id), query)
    const attempts = rows.length === 0
      ? []
      : await db.select().from(webhookAttempts).where(inArray(webhookAttempts.deliveryId, rows.map((r) => r.id))).orderBy(asc(webhookAttempts.attempt))
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

  /** Restarts deliveries (fresh retry budget, same id) reserved for this process, which attempts them now. */
  async function restart (where: SQL, max: number): Promise<number> {
    const lease = sql`now() + ${deps.delivery.engine.leaseMs}::int * interval '1 millisecond'`
    const rows = await db.update(webhookDeliveries).set({
      status: 'PENDING', cycleAttempts: 0, nextAttemptAt: databaseNow(), lockedUntil: lease, completedAt: null
    }).where(and(where, sql`${webhookDeliveries.id} in (select id from webhook_deliveries where ${where}
        and (status <> 'PENDING' or locked_until is null or locked_until < now()) order by created_at, id limit ${max})`))
      .returning({ id: webhookDeliveries.id, attempts: webhookDeliveries.attempts })
    deps.delivery.queue.push(rows.map((row) => ({ id: row.id, reserved: row.attempts })))
    return rows.length
  }

  async function redeliverOn (webhook: WebhookRow, deliveryId: string) {
    if (!webhook.isActive) throw conflict('webhook_inactive', 'The webhook is inactive; re-enable it first (PATCH isActive true)')
    const where = and(eq(webhookDeliveries.id, deliveryId), eq(webhookDeliveries.webhookId, webhook.id)) as SQL
    const [existing] = await db.select({ id: webhookDeliveries.id }).from(webhookDeliveries).where(where).limit(1)
    if (existing === undefined) throw notFound('delivery_not_found', 'Delivery')
    if (await restart(where, 1) === 0) throw conflict('delivery_in_progress', 'The delivery is being attempted right now')
    return { deliveryId, status: 'PENDING' as const }
  }

  async function redeliver (installation: CallingInstallation, id: string, deliveryId: string) {
    return await redeliverOn(await get(installation, id), deliveryId)
  }

  /** Deliveries of one registration since a time that a replay may take now (not leased by an attempt). */
  function replayable (webhook: WebhookRow, input: { since: string, status?: DeliveryRow['status'] }): SQL {
    const since = new Date(input.since)
    if (Number.isNaN(since.getTime())) throw fieldError('field_format', '/since', 'must be a date-time')
    const filters = [eq(webhookDeliveries.webhookId, webhook.id), gte(webhookDeliveries.createdAt, since)]
    if (input.status !== undefined) filters.push(eq(webhookDeliveries.status, input.status))
    return and(...filters) as SQL
  }

  /**
   * What a replay would queue now: the matching deliveries no attempt holds, the oldest MAX_REPLAY of
   * them, and where the next call should start. Taken before queueing, since queued deliveries are
   * attempted (and free again) at once. The count stops REPLAY_COUNT_LIMIT rows past the call's own,
   * so a replay (and the console's dry run) reads at most 11 000 rows of the registration's index
   * however long its log is; past that, `remaining` is a lower bound.
   */
  async function replayPlan (where: SQL) {
    const free = and(where, sql`(${webhookDeliveries.status} <> 'PENDING' or ${webhookDeliveries.lockedUntil} is null or ${webhookDeliveries.lockedUntil} < now())`)
    const counted = MAX_REPLAY + REPLAY_COUNT_LIMIT
    const capped = db.select({ one: sql`1` }).from(webhookDeliveries).where(free).limit(counted + 1).as('capped')
    const [{ found }] = await db.select({ found: count() }).from(capped)
    const [next] = found > MAX_REPLAY
      ? await db.select({ at: webhookDeliveries.createdAt }).from(webhookDeliveries).where(free)
        .orderBy(asc(webhookDeliveries.createdAt), asc(webhookDeliveries.id)).offset(MAX_REPLAY).limit(1)
      : []
    return { matching: Math.min(found, counted), exact: found <= counted, nextSince: next?.at.toISOString() ?? null }
  }

  /** `dryRun`: what the call would queue, nothing sent (the console's confirmation). */
  async function replayOn (webhook: WebhookRow, input: { since: string, status?: DeliveryRow['status'] }, options: { dryRun?: boolean } = {}) {
    if (!webhook.isActive) throw conflict('webhook_inactive', 'The webhook is inactive; re-enable it first (PATCH isActive true)')
    const where = replayable(webhook, input)
    const plan = await replayPlan(where)
    const queued = options.dryRun === true ? Math.min(plan.matching, MAX_REPLAY) : await restart(where, MAX_REPLAY)
    const remaining = Math.max(0, plan.matching - queued)
    return { queued, remaining, remainingExact: plan.exact, nextSince: remaining === 0 ? null : plan.nextSince }
  }

  async function replay (installation: CallingInstallation, id: string, input: { since: string, status?: DeliveryRow['status'] }) {
    return await replayOn(await get(installation, id), input)
  }

  /** Sends webhook.test now and answers with the result; logged like any delivery, never retried. */
  async function testOn (webhook: WebhookRow) {
    const deliveryId = newId('dlv')
    await db.insert(webhookDeliveries).values({
      id: deliveryId, webhookId: webhook.id, installationId: webhook.installationId, appId: webhook.appId, businessId: webhook.businessId,
      eventId: null, event: 'webhook.test', data: { webhookId: webhook.id, message: 'This is a test delivery from the platform.' },
      nextAttemptAt: databaseNow(), lockedUntil: sql`now() + ${deps.delivery.engine.leaseMs}::int * interval '1 millisecond'` as unknown as Date,
      traceParent: currentTraceParent()
    })
    const result = await deps.delivery.engine.attempt({ id: deliveryId, reserved: 0 }, { retry: false })
    if (result === null) throw conflict('test_delivery_failed', 'The test delivery could not be sent')
    return { success: result.success, statusCode: result.statusCode, durationMs: result.durationMs, ...(result.error !== null ? { error: result.error } : {}) }
  }

  async function test (installation: CallingInstallation, id: string) {
    return await testOn(await get(installation, id))
  }

  /** One registration of the installation as the API shows it. */
  async function show (installation: CallingInstallation, id: string) {
    return (await present([await get(installation, id)]))[0]
  }

  return {
    get, show, create, list, update, remove, deliveries, redeliver, replay, test,
    // the developer's console: the app's registrations across its installations
    deliveriesOfApp, getOfApp, listOfApp, deliveryOfApp, redeliverOfApp, reEnableOfApp, replayOn, testOn
  }
}

const installationFunctions = { createForInstallation, setAppWebhookEvents, deactivateFor, registrationsOf, recentDeliveriesOf }

declare module 'fastify' {
  interface FastifyInstance {
    /** Webhook registrations and their delivery log: the only writer of webhooks, deliveries and attempts. */
    webhooks: ReturnType<typeof createWebhooks>
    /** The interfaces webhooks asks through, provided by capabilities that boot after it (installations). */
    webhookProviders: { installations: Provided<InstallationFacts> }
  }
}

/** The app-facing service, plus what installations ask of it (over the database, or a transaction with `in(tx)`). */
export function createWebhooks (deps: WebhookServiceDeps) {
  return {
    ...createWebhookService(deps),
    ...bindExecutor(deps.db, installationFunctions),
    in: (tx: Executor) => bindExecutor(tx, installationFunctions)
  }
}

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
export type Webhooks = ReturnType<typeof createWebhooks>
