import fp from 'fastify-plugin'
import { and, eq, gt, isNull } from 'drizzle-orm'
import { installations } from '../../server/db/schema/index.ts'
import { emitEvent } from '../../server/events.ts'
import { listenForCache } from '../../server/db/listen.ts'
import { createInstallationsService, DATA_ERASURE_JOB, INSTALLATION_CHANNEL, type ErasureJob } from './service.ts'
import { createTokenCache } from './token-cache.ts'

declare module 'fastify' {
  interface FastifyInstance {
    installations: ReturnType<typeof createInstallationsService>
    tokenCache: ReturnType<typeof createTokenCache>
  }
}

/** Installations, the token cache every process keeps coherent, and the delayed data-erasure job. */
export default fp(async function installationsService (fastify) {
  const tokenCache = createTokenCache()
  fastify.decorate('tokenCache', tokenCache)
  const service = createInstallationsService({
    db: fastify.db,
    jobs: fastify.jobs,
    encryptionKey: fastify.config.encryptionKey,
    dataErasureDelaySeconds: fastify.config.dataErasureDelaySeconds,
    evict: (id) => tokenCache.evictInstallation(id)
  })
  fastify.decorate('installations', service)
  fastify.onAppApproved.push(service.onAppApproved)

  // while revocations from other processes cannot arrive, every token is checked in the database
  await listenForCache(fastify, INSTALLATION_CHANNEL, 'token cache', tokenCache, (installationId) => tokenCache.evictInstallation(installationId))

  // 48 h after an uninstall (unless the merchant reinstalled), the app is told to erase the merchant's data.
  await fastify.jobs.work<ErasureJob>(DATA_ERASURE_JOB, async (job) => {
    const { installationId, appId, businessId, uninstalledAt } = job.data
    const [reinstalled] = await fastify.db.select({ id: installations.id }).from(installations)
      .where(and(eq(installations.appId, appId), eq(installations.businessId, businessId), isNull(installations.uninstalledAt), gt(installations.installedAt, new Date(uninstalledAt))))
      .limit(1)
    if (reinstalled !== undefined) {
      fastify.log.info({ installationId, reinstalledAs: reinstalled.id }, 'data erasure skipped: the merchant reinstalled')
      return
    }
    await fastify.db.transaction(async (tx) => {
      await emitEvent(tx, { businessId, event: 'business.data_erasure', data: { appId, businessId, uninstalledAt }, installationId })
    })
    fastify.log.info({ installationId }, 'data erasure requested')
  })
}, { name: 'installations-service', dependencies: ['db', 'config', 'jobs', 'apps-service'] })
