import fp from 'fastify-plugin'
import { PREFIX } from '../../server/api-prefixes.ts'
import marketplaceRoutes from './routes.ts'

/** The public marketplace: published apps only. */
export default fp(async function marketplaceCapability (fastify) {
  await fastify.register(marketplaceRoutes, { prefix: PREFIX.marketplace })
}, { name: 'marketplace-capability', dependencies: ['apps', 'installations', 'auth'] })
