import { randomUUID } from 'node:crypto'
import fp from 'fastify-plugin'
import { and, desc, eq, gt, inArray, isNull, sql } from 'drizzle-orm'
import { installations, type BlockInstance } from '../../server/db/schema/index.ts'
import { txExecutor, type Db, type Executor, type Tx } from '../../server/db/client.ts'
import { newId } from '../../server/db/ids.ts'
import { listenForCache } from '../../server/db/listen.ts'
import { decryptSecret, encryptSecret, randomSecret, randomWebhookSecret, sha256 } from '../../server/crypto.ts'
import { EVENT_SCOPES, emitEvent, type EventName } from '../../server/events.ts'
import { validationItems } from '../../server/validation.ts'
import { badRequest, conflict, notFound } from './errors.ts'
import { signJwtHs256, unixSeconds } from '../../server/signing.ts'
import type { Jobs } from '../../server/jobs.ts'
import { settingsValidator, type AppRow, type AppsService } from '../apps/service.ts'
import type { CommerceService } from '../commerce/service.ts'
import type { AppAnalyticsService } from '../app-analytics/service.ts'
import { WEBHOOK_SECRET_PREFIX, type Webhooks } from '../webhooks/service.ts'
import { activeInstallations, type ExtensionsOf } from './extensions.ts'
import { availableBlocks, checkBlocks, getEmbeds, putEmbeds } from './embeds.ts'
import { factsOf, installCountsOf } from './facts.ts'
import { offeredSetups, previousSetupOperations, recordSetup } from './previous-setup.ts'
import type { EmbedsBody, PageBlocksBody } from './schemas.ts'
import { createTokenCache, type CachedInstallation } from './token-cache.ts'
import { databaseNow, type Clock } from '../../server/clock.ts'
import type { ApiVersion } from '../../sdk/src/contract/api-versions.ts'

// What other capabilities may use without reaching into installations' files
export { embedState, type ActiveInstallation, type Settings } from './extensions.ts'
export type { CachedInstallation } from './token-cache.ts'

declare module 'fastify' {
  interface FastifyInstance {
    /** Installations, their tokens, settings and embeds: the only writer of the installations table. */
    installations: InstallationsService
    tokenCache: ReturnType<typeof createTokenCache>
  }
}

export const TOKEN_PREFIX = { live: 'fbat_', test: 'fbat_test_' } as const
export const DATA_ERASURE_JOB = 'installation.data-erasure'
/** Channel on which every process hears that an installation's token or scopes changed. */
export const INSTALLATION_CHANNEL = 'installation_changed'

export type InstallationRow = typeof installations.$inferSelect

/** A consent whose code the app has not exchanged (the oauth capability knows them; DESIGN §16). */
export interface UnexchangedConsent { appId: string, scopes: string[], consentedAt: Date, expiresAt: Date, expired: boolean }
export type UnexchangedConsentSource = (businessId: string) => Promise<UnexchangedConsent[]>

export interface InstallInput { app: AppRow, businessId: string, scopes: string[], userId: string, isTestInstall: boolean }
export interface Issued { installation: InstallationRow, accessToken: string, webhookSecret: string }
export interface ErasureJob { installationId: string, appId: string, businessId: string, uninstalledAt: string }

/** Events of the app's own webhook that the granted scopes allow. */
export function allowedEvents (events: string[], scopes: string[]): string[] {
  return events.filter((event) => {
    const scope = EVENT_SCOPES[event as EventName]
    return scope !== undefined && (scope === null || scopes.includes(scope))
  })
}

export function publicInstallation (row: InstallationRow) {
  return {
    installationId: row.id,
    appId: row.appId,
    businessId: row.businessId,
    isTestInstall: row.isTestInstall,
    needsReConsent: row.needsReConsent,
    grantedScopes: row.grantedScopes,
    pendingScopes: row.pendingScopes,
    installedAt: row.installedAt.toISOString(),
    uninstalledAt: row.uninstalledAt?.toISOString() ?? null
  }
}

export function toCached (row: InstallationRow): CachedInstallation {
  return {
    id: row.id, appId: row.appId, businessId: row.businessId, scopes: row.grantedScopes, pendingScopes: row.pendingScopes,
    isTestInstall: row.isTestInstall, apiVersion: row.apiVersion as ApiVersion
  }
}

/** Admin-page session tokens live 5 minutes, the most DESIGN §14 allows; the page asks for a fresh one. */
export const SESSION_TOKEN_SECONDS = 300

export interface InstallationsDeps {
  db: Db
  clock: Clock
  jobs: Jobs
  encryptionKey: Buffer
  dataErasureDelaySeconds: number
  /** Drop cached tokens of an installation in this process (NOTIFY reaches the others). */
  evict: (installationId: string) => void
  apps: AppsService
  webhooks: Webhooks
  commerce: CommerceService
  /** Install and uninstall counters, written in the installation's transaction. */
  analytics: Pick<AppAnalyticsService, 'in'>
  /** The API version new installations pin to (config API_VERSION_CURRENT). */
  apiVersionCurrent: ApiVersion
}

/**
 * The installations' operations over one executor: `common` runs anywhere, `inTransaction` (installing,
 * uninstalling, revoking a token, the approval listener: they write several capabilities' tables
 * together) only in a caller's transaction, so only `installations.in(tx)` offers them (the type says
 * so; no runtime check). `consentSources` is shared by every view.
 */
function installationOperations (deps: InstallationsDeps, db: Executor, consentSources: UnexchangedConsentSource[]) {
  const { encryptionKey } = deps
  const extensionsOf: ExtensionsOf = async (appIds, kinds) => await deps.apps.activeExtensionsOf(appIds, kinds)

  /** The caller's transaction: the operations that take it are offered by `in(tx)` only (createInstallationsService). */
  const transaction = (): Tx => db as Tx

  async function announce (executor: Executor, installationId: string): Promise<void> {
    deps.evict(installationId)
    // transactional: other processes hear it when the change commits
    await executor.execute(sql`select pg_notify(${INSTALLATION_CHANNEL}, ${installationId})`)
  }

  /** The live installation of the app on the business, locked for the caller's transaction. */
  async function activeFor (appId: string, businessId: string): Promise<InstallationRow | null> {
    const [row] = await db.select().from(installations)
      .where(and(eq(installations.appId, appId), eq(installations.businessId, businessId), isNull(installations.uninstalledAt)))
      .limit(1).for('update')
    return row ?? null
  }

  /**
   * Creates the installation (token, webhook secret, the app's own webhook registration), or for an
   * app already installed on the business, re-grants the requested scopes and rotates the token.
   */
  async function install (input: InstallInput): Promise<Issued> {
    const tx = transaction()
    const kind = input.isTestInstall ? 'test' : 'live'
    const accessToken = randomSecret(TOKEN_PREFIX[kind])
    const existing = await activeFor(input.app.id, input.businessId)
    if (existing !== null) {
      const pendingScopes = existing.pendingScopes.filter((s) => !input.scopes.includes(s))
      const [updated] = await tx.update(installations).set({
        accessTokenHash: sha256(accessToken), grantedScopes: input.scopes, pendingScopes, needsReConsent: pendingScopes.length > 0, updatedAt: databaseNow()
      }).where(eq(installations.id, existing.id)).returning()
      await deps.webhooks.in(tx).setAppWebhookEvents(existing.id, allowedEvents(input.app.webhookEvents, input.scopes))
      await announce(tx, existing.id)
      return { installation: updated, accessToken, webhookSecret: decryptSecret(existing.webhookSecretEncrypted, encryptionKey) }
    }
    const webhookSecret = randomWebhookSecret(WEBHOOK_SECRET_PREFIX[kind])
    const secretEncrypted = encryptSecret(webhookSecret, encryptionKey)
    const [installation] = await tx.insert(installations).values({
      id: newId('inst'),
      appId: input.app.id,
      businessId: input.businessId,
      accessTokenHash: sha256(accessToken),
      webhookSecretEncrypted: secretEncrypted,
      isTestInstall: input.isTestInstall,
      grantedScopes: input.scopes,
      apiVersion: deps.apiVersionCurrent,
      installedBy: input.userId
    }).returning()
    await deps.analytics.in(tx).recordInstall(input.app.id, input.isTestInstall)
    if (input.app.webhookUrl !== null) {
      await deps.webhooks.in(tx).createForInstallation({
        installationId: installation.id, appId: input.app.id, businessId: input.businessId, url: input.app.webhookUrl,
        secretEncrypted, events: allowedEvents(input.app.webhookEvents, input.scopes)
      })
    }
    return { installation, accessToken, webhookSecret }
  }

  /**
   * Uninstall: token revoked, webhooks off, blocks off the pages, embeds and hooks off (they follow
   * uninstalledAt), and the data-erasure job enqueued in the same transaction.
   */
  async function uninstall (installation: InstallationRow): Promise<ErasureJob> {
    const tx = transaction()
    const now = deps.clock.now()
    await tx.update(installations).set({ uninstalledAt: now, accessTokenHash: `revoked:${installation.id}`, updatedAt: now })
      .where(eq(installations.id, installation.id))
    await deps.analytics.in(tx).recordUninstall(installation.appId, installation.isTestInstall)
    await deps.webhooks.in(tx).deactivateFor(installation.id)
    const removed = await deps.commerce.in(tx).removeBlocksOf(installation.businessId, installation.id)
    // what the merchant had set up, offered back at the next install (docs/decisions.md)
    const names = Object.fromEntries((await deps.apps.in(tx).activeExtensionsOf([installation.appId], ['block', 'embed']))
      .map((extension) => [`${extension.kind}:${extension.key}`, String(extension.definition.name ?? extension.key)]))
    await tx.update(installations).set({ previousSetup: recordSetup(installation, removed, names) }).where(eq(installations.id, installation.id))
    const job: ErasureJob = {
      installationId: installation.id, appId: installation.appId, businessId: installation.businessId,
      uninstalledAt: now.toISOString()
    }
    await deps.jobs.ensureQueue(DATA_ERASURE_JOB)
    await deps.jobs.boss.send(DATA_ERASURE_JOB, job, {
      // seconds after the database's now(), the clock pg-boss starts jobs by (docs/decisions.md)
      startAfter: deps.dataErasureDelaySeconds,
      singletonKey: installation.id,
      retryLimit: 10,
      retryBackoff: true,
      db: txExecutor(tx)
    })
    await announce(tx, installation.id)
    return job
  }

  /** Revokes a token without uninstalling (a replayed OAuth code): the app must authorize again. */
  async function revokeToken (installationId: string): Promise<void> {
    const tx = transaction()
    await tx.update(installations).set({ accessTokenHash: `revoked:${newId('r')}`, updatedAt: databaseNow() }).where(eq(installations.id, installationId))
    await announce(tx, installationId)
  }

  async function findByTokenHash (tokenHash: string): Promise<InstallationRow | null> {
    const [row] = await db.select().from(installations).where(and(eq(installations.accessTokenHash, tokenHash), isNull(installations.uninstalledAt))).limit(1)
    return row ?? null
  }

  async function listForBusiness (businessId: string) {
    const rows = await db.select().from(installations)
      .where(and(eq(installations.businessId, businessId), isNull(installations.uninstalledAt)))
      .orderBy(desc(installations.installedAt))
    const apps = new Map((await deps.apps.findByIds(rows.map((row) => row.appId))).map((app) => [app.id, app]))
    return rows.flatMap((installation) => {
      const app = apps.get(installation.appId)
      if (app === undefined) return []
      return [{ installation, app: { id: app.id, name: app.name, slug: app.slug, iconUrl: app.iconUrl, appUrl: app.appUrl, manifest: app.manifest } }]
    })
  }

  /** Approved installs the app has not finished, for apps not installed on the business. */
  async function unfinishedFor (businessId: string, installedAppIds: string[]) {
    const consents = (await Promise.all(consentSources.map(async (source) => await source(businessId)))).flat()
      .filter((consent) => !installedAppIds.includes(consent.appId))
    const apps = new Map((await deps.apps.findByIds(consents.map((c) => c.appId))).map((app) => [app.id, app]))
    return consents.flatMap((consent) => {
      const app = apps.get(consent.appId)
      return app === undefined ? [] : [{ consent, app }]
    })
  }

  /** An active installation of this business; another business's is a 404. */
  async function getForBusiness (businessId: string, installationId: string, lock = false): Promise<InstallationRow> {
    const query = db.select().from(installations)
      .where(and(eq(installations.id, installationId), eq(installations.businessId, businessId), isNull(installations.uninstalledAt))).limit(1)
    const [row] = lock ? await query.for('update') : await query
    if (row === undefined) throw notFound('installation_not_found', 'Installation')
    return row
  }

  /** The merchant approves the scopes added since install: the token grants the full set from now on. */
  async function consent (businessId: string, installationId: string): Promise<InstallationRow> {
    return await db.transaction(async (tx) => {
      const row = await installationOperations(deps, tx, consentSources).common.getForBusiness(businessId, installationId, true)
      const grantedScopes = [...new Set([...row.grantedScopes, ...row.pendingScopes])]
      const [updated] = await tx.update(installations).set({ grantedScopes, pendingScopes: [], needsReConsent: false, updatedAt: databaseNow() })
        .where(eq(installations.id, row.id)).returning()
      const app = await deps.apps.in(tx).findById(row.appId) as AppRow
      await deps.webhooks.in(tx).setAppWebhookEvents(row.id, allowedEvents(app.webhookEvents, grantedScopes))
      await announce(tx, row.id)
      return updated
    })
  }

  /** Approval: test installs become production installs (same token); grown scopes need re-consent. */
  async function onAppApproved (app: AppRow, previouslyApproved: string[]): Promise<void> {
    const tx = transaction()
    const rows = await tx.select().from(installations).where(and(eq(installations.appId, app.id), isNull(installations.uninstalledAt))).for('update')
    const added = app.approvedScopes.filter((s) => !previouslyApproved.includes(s))
    for (const row of rows) {
      const pendingScopes = [...new Set([...row.pendingScopes, ...added.filter((s) => !row.grantedScopes.includes(s))])]
      const expands = previouslyApproved.length > 0 && pendingScopes.length > 0
      await tx.update(installations).set({
        isTestInstall: false,
        ...(expands ? { pendingScopes, needsReConsent: true } : {}),
        updatedAt: databaseNow()
      }).where(eq(installations.id, row.id))
      await announce(tx, row.id)
    }
  }

  /**
   * A draft app is being deleted: its (test) installs end now, like an uninstall without the erasure
   * notice (the sandbox is the developer's own), and their rows go with the app's by foreign key.
   */
  async function endForDeletedApp (app: AppRow): Promise<void> {
    const tx = transaction()
    const rows = await tx.select().from(installations).where(eq(installations.appId, app.id)).for('update')
    if (rows.some((row) => !row.isTestInstall)) throw conflict('app_has_installations', 'The app has merchant installations and cannot be deleted')
    for (const row of rows.filter((r) => r.uninstalledAt === null)) {
      await deps.webhooks.in(tx).deactivateFor(row.id)
      await deps.commerce.in(tx).removeBlocksOf(row.businessId, row.id)
      await announce(tx, row.id)
    }
  }

  async function testInstallOf (appId: string, businessId: string): Promise<InstallationRow | null> {
    const [row] = await db.select().from(installations)
      .where(and(eq(installations.appId, appId), eq(installations.businessId, businessId), isNull(installations.uninstalledAt))).limit(1)
    return row ?? null
  }

  /** The manifest's top-level settingsSchema of the installation's app, or null when it declares none. */
  async function settingsOf (businessId: string, installationId: string) {
    const installation = await getForBusiness(businessId, installationId)
    return { settings: installation.settings, settingsSchema: await deps.apps.settingsSchemaOf(installation.appId) }
  }

  /** Replaces the app settings, validated against the settingsSchema (400 lists every problem). */
  async function putSettings (businessId: string, installationId: string, settings: Record<string, unknown>) {
    const installation = await getForBusiness(businessId, installationId)
    const schema = await deps.apps.settingsSchemaOf(installation.appId)
    if (schema === null) throw badRequest('settings_none', 'This app has no settings')
    const validate = settingsValidator(schema)
    if (!validate(settings)) {
      const items = validationItems(validate.errors ?? []).map((item) => ({ ...item, path: `/settings${item.path}` }))
      throw badRequest('validation_failed', `Invalid settings: ${items.map((item) => `${item.path.slice(1)} ${item.message}`).join('; ')}`, { errors: items })
    }
    await db.update(installations).set({ settings, updatedAt: databaseNow() }).where(eq(installations.id, installation.id))
    return { settings, settingsSchema: schema }
  }

  /** Live (not test, not uninstalled) installs per app, for the marketplace. */
  async function liveInstallCounts (appIds: string[]): Promise<Map<string, number>> {
    if (appIds.length === 0) return new Map()
    const rows = await db.select({ appId: installations.appId, n: sql<number>`count(*)::int` }).from(installations)
      .where(and(inArray(installations.appId, appIds), eq(installations.isTestInstall, false), isNull(installations.uninstalledAt)))
      .groupBy(installations.appId)
    return new Map(rows.map((row) => [row.appId, row.n]))
  }

  /** True when the app was installed again on the business after `since` (a pending data erasure is void). */
  async function reinstalledSince (appId: string, businessId: string, since: Date): Promise<string | null> {
    const [row] = await db.select({ id: installations.id }).from(installations)
      .where(and(eq(installations.appId, appId), eq(installations.businessId, businessId), isNull(installations.uninstalledAt),
        gt(installations.installedAt, since)))
      .limit(1)
    return row?.id ?? null
  }

  /**
   * A session token for one of the business's installations (DESIGN §12/§14): a JWT, HS256, keyed with
   * the installation's webhook secret, telling the app's backend which user of which business looks at
   * its admin page. `issuer` is the admin origin.
   */
  async function sessionToken (input: { businessId: string, installationId: string, userId: string, issuer: string }) {
    const installation = await getForBusiness(input.businessId, input.installationId)
    const [app] = await deps.apps.findByIds([installation.appId])
    if (app === undefined) throw notFound('installation_not_found', 'Installation')
    const iat = unixSeconds(deps.clock.now())
    const exp = iat + SESSION_TOKEN_SECONDS
    const claims = {
      iss: input.issuer, aud: app.clientId, sub: input.userId, businessId: installation.businessId, installationId: installation.id, iat, exp, jti: randomUUID()
    }
    const secret = decryptSecret(installation.webhookSecretEncrypted, encryptionKey)
    return { sessionToken: signJwtHs256(claims, secret), expiresAt: new Date(exp * 1000).toISOString() }
  }

  /** Origins of the admin pages of every app installed anywhere (test installs too): the admin SPA's frame-src. */
  async function adminPageOrigins (): Promise<string[]> {
    const rows = await db.selectDistinct({ appId: installations.appId }).from(installations).where(isNull(installations.uninstalledAt))
    const pages = await deps.apps.activeExtensionsOf(rows.map((row) => row.appId), ['admin_page'])
    const origins = new Set<string>()
    for (const page of pages) {
      try { origins.add(new URL(String(page.definition.renderUrl)).origin) } catch {}
    }
    return [...origins].sort()
  }

  /**
   * Moves the app's pinned API version: its sandbox (test) installs, or all its live installs. No
   * merchant consent: a version changes shapes, never scopes. Returns how many moved.
   */
  async function pinApiVersion (appId: string, version: ApiVersion, which: 'sandbox' | 'all'): Promise<number> {
    const moved = await db.update(installations).set({ apiVersion: version, updatedAt: databaseNow() })
      .where(and(eq(installations.appId, appId), isNull(installations.uninstalledAt), ...(which === 'sandbox' ? [eq(installations.isTestInstall, true)] : [])))
      .returning({ id: installations.id })
    for (const row of moved) await announce(db, row.id)
    return moved.length
  }

  /** The pinned versions of the app's live installs (test installs apart). */
  async function pinnedVersionsOf (appId: string): Promise<Array<{ apiVersion: string, isTestInstall: boolean, installs: number }>> {
    return await db.select({ apiVersion: installations.apiVersion, isTestInstall: installations.isTestInstall, installs: sql<number>`count(*)::int` })
      .from(installations).where(and(eq(installations.appId, appId), isNull(installations.uninstalledAt)))
      .groupBy(installations.apiVersion, installations.isTestInstall).orderBy(installations.apiVersion)
  }

  const previousSetup = previousSetupOperations({
    db: deps.db, clock: deps.clock, extensionsOf, settingsSchemaOf: async (appId) => await deps.apps.settingsSchemaOf(appId), commerce: deps.commerce
  })

  const common = {
    pinApiVersion, pinnedVersionsOf,
    ...previousSetup,
    offeredSetups: async (businessId: string, rows: InstallationRow[]) => await offeredSetups(db, businessId, rows),
    adminPageOrigins, sessionToken, unfinishedFor,
    /** The oauth capability registers where unexchanged consents are found. */
    addConsentSource: (source: UnexchangedConsentSource) => { consentSources.push(source) },
    findByTokenHash, listForBusiness, getForBusiness, consent, testInstallOf, activeFor,
    settingsOf, putSettings, liveInstallCounts, reinstalledSince,
    activeExtensions: async (businessId: string) => await activeInstallations(db, extensionsOf, businessId),
    checkBlocks: async (businessId: string, body: PageBlocksBody, current: BlockInstance[] = []) =>
      await checkBlocks(db, extensionsOf, businessId, body, current),
    availableBlocks: async (businessId: string) => await availableBlocks(db, extensionsOf, businessId, deps.apps),
    getEmbeds: async (businessId: string, installationId: string) => await getEmbeds(db, extensionsOf, businessId, installationId),
    putEmbeds: async (businessId: string, installationId: string, body: EmbedsBody) => await putEmbeds(db, extensionsOf, businessId, installationId, body)
  }
  return { common, inTransaction: { install, uninstall, revokeToken, onAppApproved, endForDeletedApp } }
}

/**
 * The installations service over the database, or over a caller's transaction with
 * `installations.in(tx)` (as commerce and webhooks do), which alone offers install, uninstall,
 * revokeToken and onAppApproved: calling them outside a transaction does not compile.
 */
export function createInstallationsService (deps: InstallationsDeps, consentSources: UnexchangedConsentSource[] = []) {
  return {
    ...installationOperations(deps, deps.db, consentSources).common,
    in: (tx: Tx) => {
      const { common, inTransaction } = installationOperations(deps, tx, consentSources)
      return { ...common, ...inTransaction }
    }
  }
}

export type InstallationsService = ReturnType<typeof createInstallationsService>

/** Installations, the token cache every process keeps coherent, and the delayed data-erasure job. */
export default fp(async function installationsService (fastify) {
  const tokenCache = createTokenCache({ clock: fastify.clock })
  fastify.decorate('tokenCache', tokenCache)
  const service = createInstallationsService({
    db: fastify.db,
    clock: fastify.clock,
    jobs: fastify.jobs,
    encryptionKey: fastify.config.encryptionKey,
    dataErasureDelaySeconds: fastify.config.dataErasureDelaySeconds,
    evict: (id) => tokenCache.evictInstallation(id),
    apps: fastify.apps,
    webhooks: fastify.webhooks,
    commerce: fastify.commerce,
    analytics: fastify.appAnalytics,
    apiVersionCurrent: fastify.config.apiVersionCurrent
  })
  fastify.decorate('installations', service)
  // what commerce, webhooks and app-analytics ask of installations, through the interfaces they define
  fastify.commerceProviders.pageBlocks.provide({ checkBlocks: service.checkBlocks })
  const facts = async (ids: string[]) => await factsOf(fastify.db, ids)
  fastify.webhookProviders.installations.provide({ factsOf: facts })
  fastify.appAnalyticsProviders.installations.provide({
    factsOf: facts, installCountsOf: async (appId, sandbox) => await installCountsOf(fastify.db, appId, sandbox)
  })
  fastify.onAppApproved.push(async (tx, app, previouslyApproved) => { await service.in(tx).onAppApproved(app, previouslyApproved) })
  fastify.onAppDeleting.push(async (tx, app) => { await service.in(tx).endForDeletedApp(app) })

  // while revocations from other processes cannot arrive, every token is checked in the database
  await listenForCache(fastify, INSTALLATION_CHANNEL, 'token cache', tokenCache, (installationId) => tokenCache.evictInstallation(installationId))

  // 48 h after an uninstall (unless the merchant reinstalled), the app is told to erase the merchant's data.
  await fastify.jobs.work<ErasureJob>(DATA_ERASURE_JOB, async (job) => {
    const { installationId, appId, businessId, uninstalledAt } = job.data
    const reinstalledAs = await service.reinstalledSince(appId, businessId, new Date(uninstalledAt))
    if (reinstalledAs !== null) {
      fastify.log.info({ installationId, reinstalledAs }, 'data erasure skipped: the merchant reinstalled')
      return
    }
    await fastify.db.transaction(async (tx) => {
      await emitEvent(tx, { businessId, event: 'business.data_erasure', data: { appId, businessId, uninstalledAt }, installationId })
    })
    fastify.log.info({ installationId }, 'data erasure requested')
  })
}, { name: 'installations', dependencies: ['db', 'clock', 'config', 'jobs', 'apps', 'webhooks', 'commerce', 'app-analytics'] })
