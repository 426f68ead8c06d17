import fp from 'fastify-plugin'
import { PREFIX } from '../../server/api-prefixes.ts'
import type { CapabilityOptions } from '../../server/capability.ts'
import { startRelay, type Relay } from './service.ts'
import relayRoutes, { type RelayNeeds } from './routes.ts'

export type { Relay, RelayNeeds }

/** The local relay (`app-platform listen`): its sessions and calls, and the developer's routes. */
export default fp<CapabilityOptions<RelayNeeds, Relay>>(async function relayCapability (fastify, { apps, guards, expose }) {
  const relay = startRelay(fastify)
  expose(relay)
  await fastify.register(relayRoutes, { prefix: PREFIX.developerApps, apps, guards, relay })
}, { name: 'relay' })
