import fp from 'fastify-plugin'
import { PREFIX } from '../../server/api-prefixes.ts'
import relayService from './service.ts'
import relayRoutes from './routes.ts'

/** The local relay (`app-platform listen`): its sessions and calls, and the developer's routes. */
export default fp(async function relayCapability (fastify) {
  await fastify.register(relayService)
  await fastify.register(relayRoutes, { prefix: PREFIX.developerApps })
}, { name: 'relay-capability', dependencies: ['auth-guards'] })
