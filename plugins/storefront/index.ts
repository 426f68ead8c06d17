import fp from 'fastify-plugin'
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { PREFIX } from '../../server/api-prefixes.ts'
import storefrontRateLimit from './rate-limit.ts'
import storefrontHtmlRoutes from './html-routes.ts'
import storefrontApiRoutes from './api-routes.ts'
import checkoutRoutes from './checkout-routes.ts'
import shopRoutes from './shop-routes.ts'
import type { CapabilityOptions } from '../../server/capability.ts'
import type { StorefrontNeeds } from './view.ts'
import { actAs } from '../../server/actor.ts'

export type { StorefrontNeeds }

/** /store: server-rendered storefront pages, their assets, and the public customer API (catalogue, reviews, checkout). */
const storefrontRoutes: FastifyPluginAsyncTypebox<StorefrontNeeds> = async (fastify, { commerce, installations, checkoutHooks }) => {
  const needs: StorefrontNeeds = { commerce, installations, checkoutHooks }
  // what a store's visitor changes (an order, a review) is the customer's in the activity log; the service names them
  fastify.addHook('onRequest', async () => { actAs({ type: 'customer', id: null }) })
  await fastify.register(storefrontHtmlRoutes, needs)
  await fastify.register(storefrontApiRoutes, needs)
  await fastify.register(checkoutRoutes, needs)
  await fastify.register(shopRoutes, needs)
}

/** The storefront: its per-customer rate limit and its routes. */
export default fp<CapabilityOptions<StorefrontNeeds, null>>(async function storefrontCapability (fastify, { expose, ...needs }) {
  // nothing of the storefront is called by another capability
  expose(null)
  await fastify.register(storefrontRateLimit)
  await fastify.register(storefrontRoutes, { prefix: PREFIX.store, ...needs })
}, { name: 'storefront' })
