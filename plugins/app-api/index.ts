import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import businessRoutes from './routes/business.ts'
import orderRoutes from './routes/orders.ts'
import pageRoutes from './routes/pages.ts'
import paymentRoutes from './routes/payments.ts'
import productRoutes from './routes/products.ts'
import reviewRoutes from './routes/reviews.ts'

/** The App API: data of the token's business only, each route behind its scope (DESIGN §7). */
const appApiRoutes: FastifyPluginAsyncTypebox = async (fastify) => {
  await fastify.register(productRoutes)
  await fastify.register(orderRoutes)
  await fastify.register(paymentRoutes)
  await fastify.register(reviewRoutes)
  await fastify.register(businessRoutes)
  await fastify.register(pageRoutes)
}

export default appApiRoutes
