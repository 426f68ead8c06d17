import fp from 'fastify-plugin'
import { CATALOG_CHANNEL, createCatalogCache, type CatalogCache } from './catalog-cache.ts'

declare module 'fastify' {
  interface FastifyInstance {
    catalogCache: CatalogCache
  }
}

/** The catalogue cache of this process, kept coherent with every other one through LISTEN. */
export default fp(async function catalogCachePlugin (fastify) {
  const cache = createCatalogCache({ maxBytes: fastify.config.appApiCacheBytes })
  fastify.decorate('catalogCache', cache)
  if (fastify.config.appApiCacheBytes === 0) return
  const unlisten = await fastify.database.listen(CATALOG_CHANNEL, (payload) => cache.received(payload), {
    onLost: () => {
      fastify.log.warn('LISTEN connection lost: the catalogue cache is off until it is back')
      cache.setEnabled(false)
    },
    onRestored: () => {
      fastify.log.info('LISTEN connection restored: the catalogue cache is on again')
      cache.setEnabled(true)
    }
  })
  fastify.addHook('onClose', async () => { await unlisten().catch(() => {}) })
}, { name: 'catalog-cache', dependencies: ['db', 'config'] })
