import type { FastifyInstance } from 'fastify'
import type { AppAnalytics } from '../app-analytics/index.ts'
import type { Apps } from '../apps/index.ts'
import type { Guards } from '../auth/guards.ts'
import type { Commerce } from '../commerce/index.ts'
import type { WebhooksPort } from '../webhooks/index.ts'
import type { Tx } from '../../server/db/client.ts'
import { bindExecutor, bindTo } from '../../server/db/bind.ts'
import { listenForCache } from '../../server/db/listen.ts'
import { emitEvent } from '../../server/events.ts'
import { adminPageOrigins, sessionToken } from './admin-pages.ts'
import { pinApiVersion, pinnedVersionsOf } from './api-version-pins.ts'
import { INSTALLATION_CHANNEL, type InstallationsContext, type InstallationsDeps, type UnexchangedConsentSource, type UninstallingListener } from './context.ts'
import { activeExtensions, availableBlocks, checkBlocks, getEmbeds, putEmbeds } from './embeds.ts'
import { factsOf, installCountsOf } from './facts.ts'
import { consent, DATA_ERASURE_JOB, endForDeletedApp, install, onAppApproved, revokeToken, uninstall, type ErasureJob, type Issued } from './lifecycle.ts'
import {
  activeFor, addConsentSource, findByTokenHash, getForBusiness, listForBusiness, liveInstallCounts, realInstallsOf, reinstalledSince, testInstallOf,
  unfinishedFor
} from './lookups.ts'
import { dismissPreviousSetup, offeredSetups, previousSetupOf, restoreSetup } from './previous-setup.ts'
import { putSettings, settingsOf } from './settings.ts'
import { createTokenCache, type TokenCache } from './token-cache.ts'
import { startAppAuth, type AppAuth } from './app-auth.ts'
import { testInstall, testUninstall, uninstallFromBusiness, type UseCaseDeps } from './use-cases.ts'

// What other capabilities may use without reaching into installations' files
export { embedState, type ActiveInstallation, type Settings } from './extensions.ts'
export type { CachedInstallation, TokenCache } from './token-cache.ts'
export type { AppAuth } from './app-auth.ts'
export {
  INSTALLATION_CHANNEL, publicInstallation, toCached,
  type InstallationRow, type InstallationsDeps, type UnexchangedConsent, type UnexchangedConsentSource, type UninstallingListener
} from './context.ts'
export { allowedEvents, DATA_ERASURE_JOB, TOKEN_PREFIX, type ErasureJob, type InstallInput, type Issued } from './lifecycle.ts'
export { SESSION_TOKEN_SECONDS } from './admin-pages.ts'

/** What every view offers, over the database or a caller's transaction. */
function operations (context: InstallationsContext) {
  return {
    ...bindExecutor(context.executor, {
      activeFor, findByTokenHash, getForBusiness, testInstallOf, liveInstallCounts, realInstallsOf, reinstalledSince, pinnedVersionsOf, offeredSetups
    }),
    ...bindTo(context, {
      addConsentSource, listForBusiness, unfinishedFor, consent, settingsOf, putSettings, sessionToken, adminPageOrigins, pinApiVersion,
      previousSetupOf, restoreSetup, dismissPreviousSetup, activeExtensions, checkBlocks, availableBlocks, getEmbeds, putEmbeds
    })
  }
}

/**
 * The installations service over the database, or over a caller's transaction with
 * `installations.in(tx)` (as commerce and webhooks do), which alone offers install, uninstall,
 * revokeToken, onAppApproved and endForDeletedApp: they take `InstallationsContext<Tx>`, so calling
 * them outside a transaction does not compile (no runtime check). `consentSources` is shared by every view.
 */
export function createInstallationsService (deps: InstallationsDeps, consentSources: UnexchangedConsentSource[] = []) {
  const root: InstallationsContext = { ...deps, executor: deps.db, consentSources }
  return {
    ...operations(root),
    in: (tx: Tx) => {
      const context: InstallationsContext<Tx> = { ...root, executor: tx }
      return { ...operations(context), ...bindTo(context, { install, uninstall, revokeToken, onAppApproved, endForDeletedApp }) }
    }
  }
}

export type InstallationsService = ReturnType<typeof createInstallationsService>

/**
 * Installations' port (server/capability.ts): installs and their tokens, settings and embeds (the only
 * writer of the installations table), the token cache, the app-token guards the App API puts on its
 * routes, and the use cases that span apps and installations in one transaction (./use-cases.ts).
 */
export interface Installations extends InstallationsService {
  /** Run inside every uninstall's transaction (billing). */
  onUninstalling: UninstallingListener[]
  tokenCache: TokenCache
  appAuth: AppAuth
  testInstall: (developerId: string, appId: string, sandboxId: string) => Promise<Issued>
  testUninstall: (developerId: string, appId: string, sandboxId: string) => Promise<string>
  uninstallFromBusiness: (businessId: string, installationId: string) => Promise<void>
}

/** What installations needs of the others. */
export interface InstallationsNeeds {
  apps: Apps
  webhooks: Pick<WebhooksPort, 'in' | 'registrationsOf' | 'recentDeliveriesOf' | 'providers'>
  commerce: Pick<Commerce, 'in' | 'findBusiness' | 'providers'>
  appAnalytics: Pick<AppAnalytics, 'in' | 'providers'>
  guards: Pick<Guards, 'requireRole' | 'requireMerchant'>
}

/**
 * Installations, the token cache every process keeps coherent, and the delayed data-erasure job; what
 * commerce, webhooks and app-analytics ask of installations is provided here, through the interfaces they define.
 */
export async function startInstallations (fastify: FastifyInstance, { apps, webhooks, commerce, appAnalytics }: InstallationsNeeds): Promise<Installations> {
  const tokenCache = createTokenCache({ clock: fastify.clock })
  const onUninstalling: UninstallingListener[] = []
  const service = createInstallationsService({
    onUninstalling,
    db: fastify.db,
    clock: fastify.clock,
    jobs: fastify.jobs,
    encryptionKey: fastify.config.encryptionKey,
    dataErasureDelaySeconds: fastify.config.dataErasureDelaySeconds,
    evict: (id) => tokenCache.evictInstallation(id),
    apps,
    webhooks,
    commerce,
    analytics: appAnalytics
  })
  commerce.providers.pageBlocks.provide({ checkBlocks: service.checkBlocks })
  const facts = async (ids: string[]) => await factsOf(fastify.db, ids)
  webhooks.providers.installations.provide({ factsOf: facts })
  appAnalytics.providers.installations.provide({
    factsOf: facts, installCountsOf: async (appId, sandbox) => await installCountsOf(fastify.db, appId, sandbox)
  })
  apps.onAppApproved.push(async (tx, app, previouslyApproved) => { await service.in(tx).onAppApproved(app, previouslyApproved) })
  apps.onAppDeleting.push(async (tx, app) => { await service.in(tx).endForDeletedApp(app) })

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

  const useCases: UseCaseDeps = { db: fastify.db, apps, installations: service }
  return {
    ...service,
    onUninstalling,
    tokenCache,
    appAuth: startAppAuth(fastify, service, tokenCache),
    testInstall: async (developerId, appId, sandboxId) => await testInstall(useCases, developerId, appId, sandboxId),
    testUninstall: async (developerId, appId, sandboxId) => await testUninstall(useCases, developerId, appId, sandboxId),
    uninstallFromBusiness: async (businessId, installationId) => await uninstallFromBusiness(useCases, businessId, installationId)
  }
}
