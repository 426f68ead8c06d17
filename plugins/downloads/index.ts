import fp from 'fastify-plugin'
import { PREFIX } from '../../server/api-prefixes.ts'
import type { CapabilityOptions } from '../../server/capability.ts'
import downloadsRoutes from './routes.ts'
import { createDownloads, type Downloads, type DownloadsOptions } from './service.ts'

export type { Downloads, DownloadsOptions }

/** The SDK and CLI as npm tarballs served by the platform: `/downloads`. */
export default fp<CapabilityOptions<DownloadsOptions, Downloads>>(async function downloadsCapability (fastify, { expose, ...options }) {
  const downloads = createDownloads({
    ...options,
    onError: options.onError ?? ((key, error) => fastify.log.error({ err: error, package: key }, 'a download tarball could not be built'))
  })
  expose(downloads)
  await fastify.register(downloadsRoutes, { prefix: PREFIX.downloads, downloads })
}, { name: 'downloads' })
