import fp from 'fastify-plugin'
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { PREFIX } from '../../server/api-prefixes.ts'
import commerceService from './service.ts'
import catalogCache from './catalog-cache-plugin.ts'
import paymentExpiry from './payment-expiry.ts'
import productRoutes from './routes/products.ts'
import orderRoutes from './routes/orders.ts'
import reviewRoutes from './routes/reviews.ts'
import pageRoutes from './routes/pages.ts'
import businessRoutes from './routes/business.ts'
import promoCodeRoutes from './routes/promo-codes.ts'
import sampleImageRoutes from './routes/sample-images.ts'
import productImageRoutes from './routes/product-images.ts'

/** /merchant: the signed-in merchant's own catalogue, orders, reviews, pages, business and promo codes. */
const merchantRoutes: FastifyPluginAsyncTypebox = async (fastify) => {
  await fastify.register(productRoutes)
  await fastify.register(orderRoutes)
  await fastify.register(reviewRoutes)
  await fastify.register(pageRoutes)
  await fastify.register(businessRoutes)
  await fastify.register(promoCodeRoutes)
}

/**
 * Commerce: businesses, products, orders, payments, promo codes, pages and reviews (the service, the
 * catalogue cache, payment expiry), the merchant's routes and the product and sample pictures.
 */
export default fp(async function commerceCapability (fastify) {
  await fastify.register(commerceService)
  await fastify.register(catalogCache)
  await fastify.register(paymentExpiry)
  await fastify.register(sampleImageRoutes, { prefix: PREFIX.sampleMedia })
  await fastify.register(productImageRoutes, { prefix: PREFIX.productMedia })
  await fastify.register(merchantRoutes, { prefix: PREFIX.merchant })
}, { name: 'commerce-capability', dependencies: ['auth-guards'] })
