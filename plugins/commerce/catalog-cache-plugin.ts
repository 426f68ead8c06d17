import fp from 'fastify-plugin'
import { listenForCache } from '../../server/db/listen.ts'
import { CATALOG_CHANNEL, createCatalogCache, type CatalogCache } from './catalog-cache.ts'

declare module 'fastify' {
  interface FastifyInstance {
    catalogCache: CatalogCache
  }
}

/** The catalogue cache of this process, kept coherent with every other one through LISTEN. */
export default fp(async function catalogCachePlugin (fastify) {
  const cache = createCatalogCache({ maxBytes: fastify.config.appApiCacheBytes, clock: fastify.clock })
  fastify.decorate('catalogCache', cache)
  if (fastify.config.appApiCacheBytes === 0) return
  await listenForCache(fastify, CATALOG_CHANNEL, 'catalogue cache', cache, (payload) => cache.received(payload))
}, { name: 'catalog-cache', dependencies: ['db', 'clock', 'config'] })
