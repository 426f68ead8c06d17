import { and, desc, eq, isNull, sql } from 'drizzle-orm'
import { apps, installations, pages, webhooks } from '../../server/db/schema/index.ts'
import { txExecutor, type Db, type Executor, type Tx } from '../../server/db/client.ts'
import { newId } from '../../server/db/ids.ts'
import { decryptSecret, encryptSecret, randomSecret, sha256 } from '../../server/crypto.ts'
import { EVENT_SCOPES, type EventName } from '../../server/events.ts'
import { notFound } from '../../server/http-errors.ts'
import type { Jobs } from '../../server/jobs.ts'
import type { AppRow } from '../apps/service.ts'
import type { CachedInstallation } from './token-cache.ts'

export const TOKEN_PREFIX = { live: 'fbat_', test: 'fbat_test_' } as const
export const WEBHOOK_SECRET_PREFIX = { live: 'whsec_', test: 'whsec_test_' } as const
export const DATA_ERASURE_JOB = 'installation.data-erasure'
/** Channel on which every process hears that an installation's token or scopes changed. */
export const INSTALLATION_CHANNEL = 'installation_changed'

export type InstallationRow = typeof installations.$inferSelect

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
  return { id: row.id, appId: row.appId, businessId: row.businessId, scopes: row.grantedScopes, pendingScopes: row.pendingScopes, isTestInstall: row.isTestInstall }
}

export interface InstallationsDeps {
  db: Db
  jobs: Jobs
  encryptionKey: Buffer
  dataErasureDelaySeconds: number
  /** Drop cached tokens of an installation in this process (NOTIFY reaches the others). */
  evict: (installationId: string) => void
}

export function createInstallationsService (deps: InstallationsDeps) {
  const { db, encryptionKey } = deps

  async function announce (executor: Executor, installationId: string): Promise<void> {
    deps.evict(installationId)
    // transactional: other processes hear it when the change commits
    await executor.execute(sql`select pg_notify(${INSTALLATION_CHANNEL}, ${installationId})`)
  }

  async function activeFor (executor: Executor, appId: string, businessId: string): Promise<InstallationRow | null> {
    const [row] = await executor.select().from(installations)
      .where(and(eq(installations.appId, appId), eq(installations.businessId, businessId), isNull(installations.uninstalledAt)))
      .limit(1).for('update')
    return row ?? null
  }

  /**
   * Creates the installation (token, webhook secret, the app's own webhook registration), or for an
   * app already installed on the business, re-grants the requested scopes and rotates the token.
   */
  async function install (tx: Tx, input: InstallInput): Promise<Issued> {
    const kind = input.isTestInstall ? 'test' : 'live'
    const accessToken = randomSecret(TOKEN_PREFIX[kind])
    const existing = await activeFor(tx, input.app.id, input.businessId)
    if (existing !== null) {
      const pendingScopes = existing.pendingScopes.filter((s) => !input.scopes.includes(s))
      const [updated] = await tx.update(installations).set({
        accessTokenHash: sha256(accessToken), grantedScopes: input.scopes, pendingScopes, needsReConsent: pendingScopes.length > 0, updatedAt: new Date()
      }).where(eq(installations.id, existing.id)).returning()
      await tx.update(webhooks).set({ events: allowedEvents(input.app.webhookEvents, input.scopes), updatedAt: new Date() })
        .where(and(eq(webhooks.installationId, existing.id), eq(webhooks.isAppWebhook, true)))
      await announce(tx, existing.id)
      return { installation: updated, accessToken, webhookSecret: decryptSecret(existing.webhookSecretEncrypted, encryptionKey) }
    }
    const webhookSecret = randomSecret(WEBHOOK_SECRET_PREFIX[kind])
    const secretEncrypted = encryptSecret(webhookSecret, encryptionKey)
    const [installation] = await tx.insert(installations).values({
      id: newId('inst'),
      appId: input.app.id,
      businessId: input.businessId,
      accessTokenHash: sha256(accessToken),
      webhookSecretEncrypted: secretEncrypted,
      isTestInstall: input.isTestInstall,
      grantedScopes: input.scopes,
      installedBy: input.userId
    }).returning()
    if (input.app.webhookUrl !== null) {
      await tx.insert(webhooks).values({
        id: newId('wh'), installationId: installation.id, appId: input.app.id, businessId: input.businessId, url: input.app.webhookUrl,
        secretEncrypted, events: allowedEvents(input.app.webhookEvents, input.scopes), description: 'App webhook (from the app settings)', isAppWebhook: true
      })
    }
    return { installation, accessToken, webhookSecret }
  }

  /**
   * Uninstall: token revoked, webhooks off, blocks off the pages, embeds and hooks off (they follow
   * uninstalledAt), and the data-erasure job enqueued in the same transaction.
   */
  async function uninstall (tx: Tx, installation: InstallationRow): Promise<ErasureJob> {
    const now = new Date()
    await tx.update(installations).set({ uninstalledAt: now, accessTokenHash: `revoked:${installation.id}`, updatedAt: now })
      .where(eq(installations.id, installation.id))
    await tx.update(webhooks).set({ isActive: false, disabledReason: 'App uninstalled', updatedAt: now }).where(eq(webhooks.installationId, installation.id))
    await tx.update(pages).set({
      blocks: sql`coalesce((select jsonb_agg(b) from jsonb_array_elements(${pages.blocks}) b where b->>'installationId' <> ${installation.id}), '[]'::jsonb)`,
      updatedAt: now
    }).where(and(eq(pages.businessId, installation.businessId), sql`${pages.blocks} @> ${JSON.stringify([{ installationId: installation.id }])}::jsonb`))
    const job: ErasureJob = { installationId: installation.id, appId: installation.appId, businessId: installation.businessId, uninstalledAt: now.toISOString() }
    await deps.jobs.ensureQueue(DATA_ERASURE_JOB)
    await deps.jobs.boss.send(DATA_ERASURE_JOB, job, {
      startAfter: new Date(now.getTime() + deps.dataErasureDelaySeconds * 1000),
      singletonKey: installation.id,
      retryLimit: 10,
      retryBackoff: true,
      db: txExecutor(tx)
    })
    await announce(tx, installation.id)
    return job
  }

  /** Revokes a token without uninstalling (a replayed OAuth code): the app must authorize again. */
  async function revokeToken (tx: Tx, installationId: string): Promise<void> {
    await tx.update(installations).set({ accessTokenHash: `revoked:${newId('r')}`, updatedAt: new Date() }).where(eq(installations.id, installationId))
    await announce(tx, installationId)
  }

  async function findByTokenHash (tokenHash: string): Promise<InstallationRow | null> {
    const [row] = await db.select().from(installations).where(and(eq(installations.accessTokenHash, tokenHash), isNull(installations.uninstalledAt))).limit(1)
    return row ?? null
  }

  async function listForBusiness (businessId: string) {
    return await db.select({ installation: installations, app: { id: apps.id, name: apps.name, slug: apps.slug, iconUrl: apps.iconUrl, manifest: apps.manifest } })
      .from(installations).innerJoin(apps, eq(apps.id, installations.appId))
      .where(and(eq(installations.businessId, businessId), isNull(installations.uninstalledAt)))
      .orderBy(desc(installations.installedAt))
  }

  /** An active installation of this business; another business's is a 404. */
  async function getForBusiness (executor: Executor, businessId: string, installationId: string, lock = false): Promise<InstallationRow> {
    const query = executor.select().from(installations)
      .where(and(eq(installations.id, installationId), eq(installations.businessId, businessId), isNull(installations.uninstalledAt))).limit(1)
    const [row] = lock ? await query.for('update') : await query
    if (row === undefined) throw notFound('Installation')
    return row
  }

  /** The merchant approves the scopes added since install: the token grants the full set from now on. */
  async function consent (businessId: string, installationId: string): Promise<InstallationRow> {
    return await db.transaction(async (tx) => {
      const row = await getForBusiness(tx, businessId, installationId, true)
      const grantedScopes = [...new Set([...row.grantedScopes, ...row.pendingScopes])]
      const [updated] = await tx.update(installations).set({ grantedScopes, pendingScopes: [], needsReConsent: false, updatedAt: new Date() })
        .where(eq(installations.id, row.id)).returning()
      const [app] = await tx.select().from(apps).where(eq(apps.id, row.appId))
      await tx.update(webhooks).set({ events: allowedEvents(app.webhookEvents, grantedScopes), updatedAt: new Date() })
        .where(and(eq(webhooks.installationId, row.id), eq(webhooks.isAppWebhook, true)))
      await announce(tx, row.id)
      return updated
    })
  }

  /** Approval: test installs become production installs (same token); grown scopes need re-consent. */
  async function onAppApproved (tx: Tx, app: AppRow, previouslyApproved: string[]): Promise<void> {
    const rows = await tx.select().from(installations).where(and(eq(installations.appId, app.id), isNull(installations.uninstalledAt))).for('update')
    const added = app.approvedScopes.filter((s) => !previouslyApproved.includes(s))
    for (const row of rows) {
      const pendingScopes = [...new Set([...row.pendingScopes, ...added.filter((s) => !row.grantedScopes.includes(s))])]
      const expands = previouslyApproved.length > 0 && pendingScopes.length > 0
      await tx.update(installations).set({
        isTestInstall: false,
        ...(expands ? { pendingScopes, needsReConsent: true } : {}),
        updatedAt: new Date()
      }).where(eq(installations.id, row.id))
      await announce(tx, row.id)
    }
  }

  async function testInstallOf (executor: Executor, appId: string, businessId: string): Promise<InstallationRow | null> {
    const [row] = await executor.select().from(installations)
      .where(and(eq(installations.appId, appId), eq(installations.businessId, businessId), isNull(installations.uninstalledAt))).limit(1)
    return row ?? null
  }

  return { install, uninstall, revokeToken, findByTokenHash, listForBusiness, getForBusiness, consent, onAppApproved, testInstallOf, activeFor }
}

export type InstallationsService = ReturnType<typeof createInstallationsService>
