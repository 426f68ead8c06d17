import fp from 'fastify-plugin'
import type { Executor } from '../../server/db/client.ts'
import { bindExecutor } from '../../server/db/bind.ts'
import { dashboard } from './analytics-service.ts'
import { createBusiness, findBusiness, getBusinessProfile, updateBusinessProfile } from './businesses.ts'
import { checkoutContext, createOrder } from './checkout-service.ts'
import { findOrderRow, getOrder, listOrders, updateOrderStatus } from './orders-service.ts'
import { createPage, deletePage, getPage, listPages, pageById, publishedPages, removeBlocksOf, setPageBlocks, updatePage } from './pages-service.ts'
import { attachPaymentSession, completePayment, expirePayment, failPayment } from './payments-service.ts'
import { createProduct, deleteProduct, getProduct, getProductBySlug, listProducts, updateProduct } from './products-service.ts'
import { createReview, deleteReview, getReview, listReviews, reviewStats } from './reviews-service.ts'
import { seedSampleCommerce } from './sample-data.ts'
import { businessBySlug, createStoreReview, listVisibleProducts } from './storefront-queries.ts'

// What other capabilities may use without reaching into commerce's files
export { quoteCheckout, type CheckoutContext, type CheckoutPipeline } from './checkout-service.ts'
export type { BusinessRow, PageRow, ProductRow } from './serializers.ts'

declare module 'fastify' {
  interface FastifyInstance {
    /** Businesses, products, orders, payments, checkout, pages and reviews: the only writer of their tables. */
    commerce: CommerceService
  }
}

/**
 * The commerce service over the database, or over a caller's transaction with `commerce.in(tx)`:
 * every query is scoped to a business, so another business's record is a 404.
 */
export function createCommerceService (executor: Executor) {
  return {
    in: (tx: Executor) => createCommerceService(tx),
    ...bindExecutor(executor, {
      createBusiness, findBusiness, businessBySlug, getBusinessProfile, updateBusinessProfile, dashboard,
      listProducts, getProduct, getProductBySlug, createProduct, updateProduct, deleteProduct, listVisibleProducts,
      listOrders, findOrderRow, getOrder, updateOrderStatus, checkoutContext, createOrder,
      attachPaymentSession, completePayment, expirePayment, failPayment,
      listReviews, getReview, createReview, createStoreReview, deleteReview, reviewStats,
      listPages, getPage, pageById, createPage, updatePage, deletePage, publishedPages, setPageBlocks, removeBlocksOf,
      seedSample: seedSampleCommerce
    })
  }
}

export type CommerceService = ReturnType<typeof createCommerceService>

export default fp(async function commerceService (fastify) {
  fastify.decorate('commerce', createCommerceService(fastify.db))
}, { name: 'commerce', dependencies: ['db'] })
