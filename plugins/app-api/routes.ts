import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import businessRoutes from './routes/business.ts'
import type { AppApiOptions } from './routes/common.ts'
import orderRoutes from './routes/orders.ts'
import pageRoutes from './routes/pages.ts'
import paymentRoutes from './routes/payments.ts'
import productRoutes from './routes/products.ts'
import reviewRoutes from './routes/reviews.ts'

export type { AppApiOptions } from './routes/common.ts'

/** The App API: data of the token's business only, each route behind its scope (DESIGN §7). */
const appApiRoutes: FastifyPluginAsyncTypebox<AppApiOptions> = async (fastify, options) => {
  await fastify.register(productRoutes)
  await fastify.register(orderRoutes, { checkoutPipeline: options.checkoutPipeline })
  await fastify.register(paymentRoutes)
  await fastify.register(reviewRoutes)
  await fastify.register(businessRoutes)
  await fastify.register(pageRoutes)
}

export default appApiRoutes
