import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
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

export default storefrontRoutes
