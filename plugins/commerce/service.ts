import type { Executor, Tx } from '../../server/db/client.ts'
import { bindExecutor } from '../../server/db/bind.ts'
import { dashboard } from './analytics-service.ts'
import { businessNamesOf, createBusiness, findBusiness, getBusinessProfile, updateBusinessProfile } from './businesses.ts'
import { checkoutContext, createOrder } from './checkout-service.ts'
import { findOrderRow, getOrder, listOrders, syncOrders, updateOrderStatus } from './orders-service.ts'
import { createPage, deletePage, getPage, listPages, pageById, placeBlocks, publishedPages, removeBlocksOf, setPageBlocks, updatePage } from './pages-service.ts'
import { attachPaymentSession, completePayment, expirePayment, failPayment } from './payments-service.ts'
import { createProduct, deleteProduct, getProduct, getProductBySlug, listProducts, searchProducts, syncProducts, updateProduct } from './products-service.ts'
import { productImageById, setProductImage } from './product-images.ts'
import { createPromoCode, deletePromoCode, getPromoCode, listPromoCodes, updatePromoCode } from './promo-codes-service.ts'
import { createReview, deleteReview, getReview, listReviews, reviewStats, syncReviews } from './reviews-service.ts'
import { seedSampleCommerce } from './sample-data.ts'
import { exportRecords } from './export-rows.ts'
import { parseUpdatedSince } from './sync.ts'
import { businessBySlug, createStoreReview, listVisibleProducts } from './storefront-queries.ts'
import type { CommerceProviders } from './providers.ts'
import type { CatalogCache } from './catalog-cache.ts'
import type { PaymentExpiry } from './payment-expiry.ts'

// What other capabilities may use without reaching into commerce's files
export { EXPORT_FETCH_ROWS, type ExportQuery } from './export-rows.ts'
export { newOrderId, quoteCheckout, type CheckoutContext, type CheckoutPipeline } from './checkout-service.ts'
export type { BusinessRow, PageRow, ProductRow } from './serializers.ts'
export type { BlockPlacement, PlacementOutcome } from './pages-service.ts'
export type { CommerceProviders, OrderHookCall, OrderHookLog, PageBlockChecker } from './providers.ts'
export type { CatalogCache } from './catalog-cache.ts'
export type { PaymentExpiry } from './payment-expiry.ts'

/**
 * The commerce service over the database, or over a caller's transaction with `commerce.in(tx)`:
 * every query is scoped to a business, so another business's record is a 404.
 */
export function createCommerceService (executor: Executor) {
  return {
    in: (tx: Executor) => createCommerceService(tx),
    /** A bulk export's records, streamed from a cursor in the caller's transaction (export-rows.ts). */
    exportRecords,
    /** An ISO 8601 updatedSince, else 400 updated_since_invalid (cursor mode's own check). */
    parseUpdatedSince,
    ...bindExecutor(executor, {
      createBusiness, findBusiness, businessBySlug, businessNamesOf, getBusinessProfile, updateBusinessProfile, dashboard,
      listProducts, syncProducts, searchProducts, getProduct, getProductBySlug, createProduct, updateProduct, deleteProduct, listVisibleProducts,
      setProductImage, productImageById,
      listOrders, syncOrders, findOrderRow, getOrder, updateOrderStatus, checkoutContext, createOrder,
      attachPaymentSession, completePayment, expirePayment, failPayment,
      listReviews, syncReviews, getReview, createReview, createStoreReview, deleteReview, reviewStats,
      listPromoCodes, getPromoCode, createPromoCode, updatePromoCode, deletePromoCode,
      listPages, getPage, pageById, createPage, updatePage, deletePage, publishedPages, setPageBlocks, removeBlocksOf, placeBlocks,
      seedSample: seedSampleCommerce
    })
  }
}

export type CommerceService = ReturnType<typeof createCommerceService>

/**
 * Commerce's port (server/capability.ts): businesses, products, orders, payments, checkout, promo codes,
 * pages and reviews (the only writer of their tables), the interfaces its routes ask through (provided by
 * installations and checkout-hooks at their boot), the catalogue cache and the payment expiry.
 */
export interface Commerce extends CommerceService {
  providers: CommerceProviders
  catalogCache: CatalogCache
  /**
   * Enqueues the expiry of an app payment inside the caller's transaction (call it beside
   * attachPaymentSession): the job exists if and only if the session commits.
   */
  schedulePaymentExpiry: (tx: Tx, input: PaymentExpiry) => Promise<void>
}
