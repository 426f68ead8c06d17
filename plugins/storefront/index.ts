import fp from 'fastify-plugin'
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { PREFIX } from '../../server/api-prefixes.ts'
import storefrontRateLimit from './rate-limit.ts'
import storefrontHtmlRoutes from './html-routes.ts'
import storefrontApiRoutes from './api-routes.ts'
import checkoutRoutes from './checkout-routes.ts'
import shopRoutes from './shop-routes.ts'

/** /store: server-rendered storefront pages, their assets, and the public customer API (catalogue, reviews, checkout). */
const storefrontRoutes: FastifyPluginAsyncTypebox = async (fastify) => {
  await fastify.register(storefrontHtmlRoutes)
  await fastify.register(storefrontApiRoutes)
  await fastify.register(checkoutRoutes)
  await fastify.register(shopRoutes)
}

/** The storefront: its per-customer rate limit and its routes. */
export default fp(async function storefrontCapability (fastify) {
  await fastify.register(storefrontRateLimit)
  await fastify.register(storefrontRoutes, { prefix: PREFIX.store })
}, { name: 'storefront-capability' })
