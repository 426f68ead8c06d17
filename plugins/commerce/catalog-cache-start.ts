import type { FastifyInstance } from 'fastify'
import { listenForCache } from '../../server/db/listen.ts'
import { CATALOG_CHANNEL, createCatalogCache, type CatalogCache } from './catalog-cache.ts'

/** The catalogue cache of this process, kept coherent with every other one through LISTEN. */
export async function startCatalogCache (fastify: FastifyInstance): Promise<CatalogCache> {
  const cache = createCatalogCache({ maxBytes: fastify.config.appApiCacheBytes, clock: fastify.clock })
  if (fastify.config.appApiCacheBytes > 0) await listenForCache(fastify, CATALOG_CHANNEL, 'catalogue cache', cache, (payload) => cache.received(payload))
  return cache
}
