import fp from 'fastify-plugin'
import { PREFIX } from '../../server/api-prefixes.ts'
import type { CapabilityOptions } from '../../server/capability.ts'
import downloadRoutes from './download-routes.ts'
import { startBulkExports, type BulkExports, type BulkExportsNeeds } from './service.ts'

export type { BulkExports, BulkExportsNeeds }

/**
 * The app-facing /app-api/bulk-exports routes: mounted by the App API inside its app-token scope, so
 * that one token check and one rate-limit budget per installation cover them (plugins/app-api/index.ts).
 */
export { default as bulkExportAppRoutes } from './app-routes.ts'

/** Bulk exports (DESIGN §25): an installation's records as a signed gzip JSON-lines file; the download route. */
export default fp<CapabilityOptions<BulkExportsNeeds, BulkExports>>(async function bulkExportsCapability (fastify, { expose, ...needs }) {
  const bulkExports = await startBulkExports(fastify, needs)
  expose(bulkExports)
  await fastify.register(downloadRoutes, { prefix: PREFIX.bulkExports, bulkExports })
}, { name: 'bulk-exports' })
