import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import productRoutes from './routes/products.ts'
import orderRoutes from './routes/orders.ts'
import reviewRoutes from './routes/reviews.ts'
import pageRoutes from './routes/pages.ts'
import businessRoutes from './routes/business.ts'
import promoCodeRoutes from './routes/promo-codes.ts'

/** /merchant: the signed-in merchant's own catalogue, orders, reviews, pages, business and promo codes. */
const commerceRoutes: FastifyPluginAsyncTypebox = async (fastify) => {
  await fastify.register(productRoutes)
  await fastify.register(orderRoutes)
  await fastify.register(reviewRoutes)
  await fastify.register(pageRoutes)
  await fastify.register(businessRoutes)
  await fastify.register(promoCodeRoutes)
}

export default commerceRoutes
