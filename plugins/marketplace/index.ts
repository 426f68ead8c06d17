import fp from 'fastify-plugin'
import { PREFIX } from '../../server/api-prefixes.ts'
import type { CapabilityOptions } from '../../server/capability.ts'
import marketplaceRoutes, { type MarketplaceNeeds } from './routes.ts'

export type { MarketplaceNeeds }

/** The public marketplace: published apps only. Nothing of it is called by another capability. */
export default fp<CapabilityOptions<MarketplaceNeeds, null>>(async function marketplaceCapability (fastify, { expose, ...needs }) {
  expose(null)
  await fastify.register(marketplaceRoutes, { prefix: PREFIX.marketplace, ...needs })
}, { name: 'marketplace' })
