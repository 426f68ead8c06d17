import fp from 'fastify-plugin'
import { PREFIX } from '../../server/api-prefixes.ts'
import downloadsRoutes from './routes.ts'
import { createDownloads, type Downloads, type DownloadsOptions } from './service.ts'

export type { DownloadsOptions }

declare module 'fastify' {
  interface FastifyInstance {
    /** The SDK and CLI tarballs, built from the workspace on first need (DESIGN §22). */
    downloads: Downloads
  }
}

/** The SDK and CLI as npm tarballs served by the platform: `/downloads`. */
export default fp<DownloadsOptions>(async function downloadsCapability (fastify, options) {
  fastify.decorate('downloads', createDownloads({
    ...options,
    onError: options.onError ?? ((key, error) => fastify.log.error({ err: error, package: key }, 'a download tarball could not be built'))
  }))
  await fastify.register(downloadsRoutes, { prefix: PREFIX.downloads })
}, { name: 'downloads-capability' })
