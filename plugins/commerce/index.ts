import fp from 'fastify-plugin'
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { PREFIX } from '../../server/api-prefixes.ts'
import type { CapabilityOptions } from '../../server/capability.ts'
import { requireProvided } from '../../server/providers.ts'
import type { Guards } from '../auth/guards.ts'
import { createCommerceService, type Commerce } from './service.ts'
import { createCommerceProviders } from './providers.ts'
import { startCatalogCache } from './catalog-cache-start.ts'
import { startPaymentExpiry } from './payment-expiry.ts'
import productRoutes from './routes/products.ts'
import orderRoutes from './routes/orders.ts'
import reviewRoutes from './routes/reviews.ts'
import pageRoutes from './routes/pages.ts'
import businessRoutes from './routes/business.ts'
import promoCodeRoutes from './routes/promo-codes.ts'
import sampleImageRoutes from './routes/sample-images.ts'
import productImageRoutes from './routes/product-images.ts'
import type { MerchantRouteOptions } from './routes/common.ts'

export type { Commerce }

/** What commerce needs of the others: the session guards of its merchant routes. */
export interface CommerceNeeds { guards: Pick<Guards, 'requireMerchant'> }

/** /merchant: the signed-in merchant's own catalogue, orders, reviews, pages, business and promo codes. */
const merchantRoutes: FastifyPluginAsyncTypebox<MerchantRouteOptions> = async (fastify, { commerce, guards }) => {
  const options: MerchantRouteOptions = { commerce, guards }
  await fastify.register(productRoutes, options)
  await fastify.register(orderRoutes, options)
  await fastify.register(reviewRoutes, options)
  await fastify.register(pageRoutes, options)
  await fastify.register(businessRoutes, options)
  await fastify.register(promoCodeRoutes, options)
}

/**
 * Commerce: businesses, products, orders, payments, promo codes, pages and reviews (the service, the
 * catalogue cache, payment expiry), the merchant's routes and the product and sample pictures.
 */
export default fp<CapabilityOptions<CommerceNeeds, Commerce>>(async function commerceCapability (fastify, { guards, expose }) {
  const providers = createCommerceProviders()
  requireProvided(fastify, 'commerce', providers)
  const commerce: Commerce = {
    ...createCommerceService(fastify.db),
    providers,
    catalogCache: await startCatalogCache(fastify),
    schedulePaymentExpiry: await startPaymentExpiry(fastify)
  }
  expose(commerce)
  await fastify.register(sampleImageRoutes, { prefix: PREFIX.sampleMedia })
  await fastify.register(productImageRoutes, { prefix: PREFIX.productMedia, commerce })
  await fastify.register(merchantRoutes, { prefix: PREFIX.merchant, commerce, guards })
}, { name: 'commerce' })
