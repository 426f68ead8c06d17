import fp from 'fastify-plugin'
import { PREFIX } from '../../server/api-prefixes.ts'
import installationsService from './service.ts'
import appAuth from './app-auth.ts'
import testInstallRoutes from './test-install-routes.ts'
import merchantInstallationRoutes from './merchant-routes.ts'

/** The per-installation rate limit of the app-token scope, which the App API mounts (plugins/app-api/index.ts). */
export { registerAppRateLimit } from './app-rate-limit.ts'

/** Installations: installs and their tokens (the app-token check), the sandbox's test installs, the merchant's routes. */
export default fp(async function installationsCapability (fastify) {
  await fastify.register(installationsService)
  await fastify.register(appAuth)
  await fastify.register(testInstallRoutes, { prefix: PREFIX.developerApps })
  await fastify.register(merchantInstallationRoutes, { prefix: PREFIX.merchantInstallations })
}, { name: 'installations-capability', dependencies: ['auth-guards'] })
