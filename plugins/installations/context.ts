import { sql } from 'drizzle-orm'
import type { installations } from '../../server/db/schema/index.ts'
import type { Db, Executor, Tx } from '../../server/db/client.ts'
import type { Jobs } from '../../server/jobs.ts'
import type { Clock } from '../../server/clock.ts'
import type { ApiVersion } from '../../sdk/src/contract/api-versions.ts'
import type { AppsService } from '../apps/service.ts'
import type { CommerceService } from '../commerce/service.ts'
import type { AppAnalyticsService } from '../app-analytics/service.ts'
import type { Webhooks } from '../webhooks/service.ts'
import type { CachedInstallation } from './token-cache.ts'
import type { ExtensionsOf } from './extensions.ts'

/** Channel on which every process hears that an installation's token or scopes changed. */
export const INSTALLATION_CHANNEL = 'installation_changed'

export type InstallationRow = typeof installations.$inferSelect

/** A consent whose code the app has not exchanged (the oauth capability knows them; DESIGN §16). */
export interface UnexchangedConsent { appId: string, scopes: string[], consentedAt: Date, expiresAt: Date, expired: boolean }
export type UnexchangedConsentSource = (businessId: string) => Promise<UnexchangedConsent[]>

export interface InstallationsDeps {
  db: Db
  clock: Clock
  jobs: Jobs
  encryptionKey: Buffer
  dataErasureDelaySeconds: number
  /** Drop cached tokens of an installation in this process (NOTIFY reaches the others). */
  evict: (installationId: string) => void
  apps: Pick<AppsService, 'in' | 'activeExtensionsOf' | 'adminPagesOf' | 'findByIds' | 'ownedApp' | 'settingsSchemaOf'>
  /** the app's own registration follows the installation, in the installation's transaction */
  webhooks: Pick<Webhooks, 'in'>
  /** a business's slug; the installation's blocks on pages, in its transaction */
  commerce: Pick<CommerceService, 'in' | 'findBusiness'>
  /** Install and uninstall counters, written in the installation's transaction. */
  analytics: Pick<AppAnalyticsService, 'in'>
  /** Run inside every uninstall's transaction (billing cancels the installation's subscriptions). */
  onUninstalling?: UninstallingListener[]
}

/** What another capability does inside an uninstall's transaction. */
export type UninstallingListener = (tx: Tx, installation: InstallationRow) => Promise<void>

/**
 * What the installations' functions that need more than the executor run against: the executor, the
 * capability's dependencies and the consent sources (shared by every view). `InstallationsContext<Tx>`
 * is a caller's transaction: only `installations.in(tx)` binds the functions that take it.
 */
export interface InstallationsContext<E extends Executor = Executor> extends InstallationsDeps {
  executor: E
  consentSources: UnexchangedConsentSource[]
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

/** This process drops the installation's cached tokens now; the others when `executor`'s change commits. */
export async function announce (deps: Pick<InstallationsDeps, 'evict'>, executor: Executor, installationId: string): Promise<void> {
  deps.evict(installationId)
  // transactional: other processes hear it when the change commits
  await executor.execute(sql`select pg_notify(${INSTALLATION_CHANNEL}, ${installationId})`)
}

/** The apps' active extensions, asked of the apps capability (outside the caller's transaction). */
export const extensionsOf = ({ apps }: Pick<InstallationsDeps, 'apps'>): ExtensionsOf => async (appIds, kinds) => await apps.activeExtensionsOf(appIds, kinds)
