import fp from 'fastify-plugin'
import type { Tx } from '../../server/db/client.ts'
import { bindExecutor, bindTo } from '../../server/db/bind.ts'
import { listenForCache } from '../../server/db/listen.ts'
import { emitEvent } from '../../server/events.ts'
import { adminPageOrigins, sessionToken } from './admin-pages.ts'
import { pinApiVersion, pinnedVersionsOf } from './api-version-pins.ts'
import { INSTALLATION_CHANNEL, type InstallationsContext, type InstallationsDeps, type UnexchangedConsentSource } from './context.ts'
import { activeExtensions, availableBlocks, checkBlocks, getEmbeds, putEmbeds } from './embeds.ts'
import { factsOf, installCountsOf } from './facts.ts'
import { consent, DATA_ERASURE_JOB, endForDeletedApp, install, onAppApproved, revokeToken, uninstall, type ErasureJob } from './lifecycle.ts'
import {
  activeFor, addConsentSource, findByTokenHash, getForBusiness, listForBusiness, liveInstallCounts, reinstalledSince, testInstallOf, unfinishedFor
} from './lookups.ts'
import { dismissPreviousSetup, offeredSetups, previousSetupOf, restoreSetup } from './previous-setup.ts'
import { putSettings, settingsOf } from './settings.ts'
import { createTokenCache } from './token-cache.ts'

// What other capabilities may use without reaching into installations' files
export { embedState, type ActiveInstallation, type Settings } from './extensions.ts'
export type { CachedInstallation } from './token-cache.ts'
export {
  INSTALLATION_CHANNEL, publicInstallation, toCached,
  type InstallationRow, type InstallationsDeps, type UnexchangedConsent, type UnexchangedConsentSource
} from './context.ts'
export { allowedEvents, DATA_ERASURE_JOB, TOKEN_PREFIX, type ErasureJob, type InstallInput, type Issued } from './lifecycle.ts'
export { SESSION_TOKEN_SECONDS } from './admin-pages.ts'

declare module 'fastify' {
  interface FastifyInstance {
    /** Installations, their tokens, settings and embeds: the only writer of the installations table. */
    installations: InstallationsService
    tokenCache: ReturnType<typeof createTokenCache>
  }
}

/** What every view offers, over the database or a caller's transaction. */
function operations (context: InstallationsContext) {
  return {
    ...bindExecutor(context.executor, {
      activeFor, findByTokenHash, getForBusiness, testInstallOf, liveInstallCounts, reinstalledSince, pinnedVersionsOf, offeredSetups
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
    analytics: fastify.appAnalytics
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
