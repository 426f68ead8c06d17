import fp from 'fastify-plugin'
import { PREFIX } from '../../server/api-prefixes.ts'
import type { CapabilityOptions } from '../../server/capability.ts'
import { startInstallations, type Installations, type InstallationsNeeds } from './service.ts'
import testInstallRoutes from './test-install-routes.ts'
import merchantInstallationRoutes from './merchant-routes.ts'

export type { Installations, InstallationsNeeds }

/** The per-installation rate limit of the app-token scope, which the App API mounts (plugins/app-api/index.ts). */
export { registerAppRateLimit } from './app-rate-limit.ts'

/** Installations: installs and their tokens (the app-token check), the sandbox's test installs, the merchant's routes. */
export default fp<CapabilityOptions<InstallationsNeeds, Installations>>(async function installationsCapability (fastify, { expose, ...needs }) {
  const installations = await startInstallations(fastify, needs)
  expose(installations)
  const { apps, commerce, webhooks, guards } = needs
  await fastify.register(testInstallRoutes, { prefix: PREFIX.developerApps, apps, commerce, webhooks, guards, installations })
  await fastify.register(merchantInstallationRoutes, { prefix: PREFIX.merchantInstallations, apps, guards, installations })
}, { name: 'installations' })
