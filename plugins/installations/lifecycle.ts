import { and, eq, isNull } from 'drizzle-orm'
import { installations } from '../../server/db/schema/index.ts'
import { txExecutor, type Tx } from '../../server/db/client.ts'
import { newId } from '../../server/db/ids.ts'
import { decryptSecret, encryptSecret, randomSecret, randomWebhookSecret, sha256 } from '../../server/crypto.ts'
import { EVENT_SCOPES, type EventName } from '../../server/events.ts'
import { databaseNow } from '../../server/clock.ts'
import { recordActivity } from '../../server/activity.ts'
import type { AppRow } from '../apps/service.ts'
import { webhookSecretPrefix } from '../webhooks/service.ts'
import { isApiVersion, SPEC_API_VERSION, type ApiVersion } from '../../sdk/src/contract/api-versions.ts'
import { conflict } from './errors.ts'
import { announce, type InstallationRow, type InstallationsContext } from './context.ts'
import { activeFor, getForBusiness } from './lookups.ts'
import { recordSetup } from './previous-setup.ts'

// Installing and uninstalling write several capabilities' tables together: each of these takes the
// caller's transaction (InstallationsContext<Tx>), so only `installations.in(tx)` offers it.

export const TOKEN_PREFIX = { live: 'fbat_', test: 'fbat_test_' } as const
export const DATA_ERASURE_JOB = 'installation.data-erasure'

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

/**
 * The version a new installation pins to: the one the app declares, else the spec's (2026-11), so an
 * app written from the spec alone sees the spec's shapes (DESIGN §22); API_VERSION_CURRENT only names
 * the newest one offered.
 */
export const pinnedVersion = (declared: Pick<AppRow, 'apiVersion'>): ApiVersion => isApiVersion(declared.apiVersion) ? declared.apiVersion : SPEC_API_VERSION

/**
 * Creates the installation (token, webhook secret, the app's own webhook registration), or for an
 * app already installed on the business, re-grants the requested scopes and rotates the token.
 */
export async function install (context: InstallationsContext<Tx>, input: InstallInput): Promise<Issued> {
  const { executor: tx, encryptionKey } = context
  const kind = input.isTestInstall ? 'test' : 'live'
  const accessToken = randomSecret(TOKEN_PREFIX[kind])
  const existing = await activeFor(tx, input.app.id, input.businessId)
  if (existing !== null) {
    const pendingScopes = existing.pendingScopes.filter((s) => !input.scopes.includes(s))
    const [updated] = await tx.update(installations).set({
      accessTokenHash: sha256(accessToken), grantedScopes: input.scopes, pendingScopes, needsReConsent: pendingScopes.length > 0, updatedAt: databaseNow()
    }).where(eq(installations.id, existing.id)).returning()
    await context.webhooks.in(tx).setAppWebhookEvents(existing.id, allowedEvents(input.app.webhookEvents, input.scopes))
    await recordActivity(tx, {
      actor: { type: 'staff', id: input.userId },
      businessId: input.businessId, action: 'app.authorized', resource: { type: 'app', id: input.app.id },
      changes: { name: input.app.name, installationId: existing.id, scopes: { from: existing.grantedScopes, to: input.scopes } }
    })
    await announce(context, tx, existing.id)
    return { installation: updated, accessToken, webhookSecret: decryptSecret(existing.webhookSecretEncrypted, encryptionKey) }
  }
  const webhookSecret = randomWebhookSecret(webhookSecretPrefix(input.isTestInstall, input.app.webhookSignatureScheme))
  const secretEncrypted = encryptSecret(webhookSecret, encryptionKey)
  const [installation] = await tx.insert(installations).values({
    id: newId('inst'),
    appId: input.app.id,
    businessId: input.businessId,
    accessTokenHash: sha256(accessToken),
    webhookSecretEncrypted: secretEncrypted,
    isTestInstall: input.isTestInstall,
    grantedScopes: input.scopes,
    apiVersion: pinnedVersion(input.app),
    installedBy: input.userId
  }).returning()
  await context.analytics.in(tx).recordInstall(input.app.id, input.isTestInstall)
  await recordActivity(tx, {
    actor: { type: 'staff', id: input.userId },
    businessId: input.businessId, action: 'app.installed', resource: { type: 'app', id: input.app.id },
    changes: { name: input.app.name, installationId: installation.id, scopes: input.scopes, testInstall: input.isTestInstall }
  })
  if (input.app.webhookUrl !== null) {
    await context.webhooks.in(tx).createForInstallation({
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
export async function uninstall (context: InstallationsContext<Tx>, installation: InstallationRow): Promise<ErasureJob> {
  const { executor: tx } = context
  const now = context.clock.now()
  await tx.update(installations).set({ uninstalledAt: now, accessTokenHash: `revoked:${installation.id}`, updatedAt: now })
    .where(eq(installations.id, installation.id))
  await context.analytics.in(tx).recordUninstall(installation.appId, installation.isTestInstall)
  await recordActivity(tx, {
    businessId: installation.businessId, action: 'app.uninstalled', resource: { type: 'app', id: installation.appId }, changes: { installationId: installation.id }
  })
  await context.webhooks.in(tx).deactivateFor(installation.id)
  for (const listener of context.onUninstalling ?? []) await listener(tx, installation)
  const removed = await context.commerce.in(tx).removeBlocksOf(installation.businessId, installation.id)
  // what the merchant had set up, offered back at the next install (docs/decisions.md)
  const names = Object.fromEntries((await context.apps.in(tx).activeExtensionsOf([installation.appId], ['block', 'embed']))
    .map((extension) => [`${extension.kind}:${extension.key}`, String(extension.definition.name ?? extension.key)]))
  await tx.update(installations).set({ previousSetup: recordSetup(installation, removed, names) }).where(eq(installations.id, installation.id))
  const job: ErasureJob = {
    installationId: installation.id, appId: installation.appId, businessId: installation.businessId,
    uninstalledAt: now.toISOString()
  }
  await context.jobs.ensureQueue(DATA_ERASURE_JOB)
  await context.jobs.boss.send(DATA_ERASURE_JOB, job, {
    // seconds after the database's now(), the clock pg-boss starts jobs by (docs/decisions.md)
    startAfter: context.dataErasureDelaySeconds,
    singletonKey: installation.id,
    retryLimit: 10,
    retryBackoff: true,
    db: txExecutor(tx)
  })
  await announce(context, tx, installation.id)
  return job
}

/** Revokes a token without uninstalling (a replayed OAuth code): the app must authorize again. */
export async function revokeToken (context: InstallationsContext<Tx>, installationId: string): Promise<void> {
  await context.executor.update(installations).set({ accessTokenHash: `revoked:${newId('r')}`, updatedAt: databaseNow() }).where(eq(installations.id, installationId))
  await announce(context, context.executor, installationId)
}

/** The merchant approves the scopes added since install: the token grants the full set from now on. */
export async function consent (context: InstallationsContext, businessId: string, installationId: string): Promise<InstallationRow> {
  return await context.executor.transaction(async (tx) => {
    const row = await getForBusiness(tx, businessId, installationId, true)
    const grantedScopes = [...new Set([...row.grantedScopes, ...row.pendingScopes])]
    const [updated] = await tx.update(installations).set({ grantedScopes, pendingScopes: [], needsReConsent: false, updatedAt: databaseNow() })
      .where(eq(installations.id, row.id)).returning()
    const app = await context.apps.in(tx).findById(row.appId) as AppRow
    await context.webhooks.in(tx).setAppWebhookEvents(row.id, allowedEvents(app.webhookEvents, grantedScopes))
    await recordActivity(tx, {
      businessId, action: 'app.scopes_approved', resource: { type: 'app', id: row.appId },
      changes: { name: app.name, installationId: row.id, scopes: { from: row.grantedScopes, to: grantedScopes } }
    })
    await announce(context, tx, row.id)
    return updated
  })
}

/** Approval: test installs become production installs (same token); grown scopes need re-consent. */
export async function onAppApproved (context: InstallationsContext<Tx>, app: AppRow, previouslyApproved: string[]): Promise<void> {
  const { executor: tx } = context
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
    await announce(context, tx, row.id)
  }
}

/**
 * A draft app is being deleted: its (test) installs end now, like an uninstall without the erasure
 * notice (the sandbox is the developer's own), and their rows go with the app's by foreign key.
 */
export async function endForDeletedApp (context: InstallationsContext<Tx>, app: AppRow): Promise<void> {
  const { executor: tx } = context
  const rows = await tx.select().from(installations).where(eq(installations.appId, app.id)).for('update')
  if (rows.some((row) => !row.isTestInstall)) throw conflict('app_has_installations', 'The app has merchant installations and cannot be deleted')
  for (const row of rows.filter((r) => r.uninstalledAt === null)) {
    await context.webhooks.in(tx).deactivateFor(row.id)
    for (const listener of context.onUninstalling ?? []) await listener(tx, row)
    await context.commerce.in(tx).removeBlocksOf(row.businessId, row.id)
    await announce(context, tx, row.id)
  }
}
