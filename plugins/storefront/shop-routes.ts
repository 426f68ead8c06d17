import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { FastifyReply } from 'fastify'
import { Type } from '@sinclair/typebox'
import { HttpError } from '../../server/http-errors.ts'
import { contentSecurityPolicy, securityHeaders } from './csp.ts'
import { renderCartPage, renderCheckoutPage, renderOrderPage, renderProductPage, renderShopNotFound, type ShopStore } from './shop-render.ts'
import type { BusinessRow } from '../commerce/service.ts'
import type { StorefrontNeeds } from './view.ts'

const SLUG = /^[a-z0-9]+(?:-[a-z0-9]+)*$/
const isSlug = (value: string) => value.length <= 100 && SLUG.test(value)
/** Order ids are opaque and random (128 bits): knowing one is what lets a customer see its confirmation. */
const isOrderId = (value: string) => value.length <= 64 && /^ord_[a-z0-9]+$/.test(value)

// Params are checked in the handlers: a bad slug is the shop's 404 page, not a JSON 400.
const StoreParams = Type.Object({ businessSlug: Type.String() })
const ProductParams = Type.Object({ businessSlug: Type.String(), productSlug: Type.String() })
const OrderParams = Type.Object({ businessSlug: Type.String(), orderId: Type.String() })

const storeOf = (business: BusinessRow): ShopStore => ({ name: business.name, slug: business.slug, currency: business.currency, locale: business.locale })

/**
 * The customer's shop pages on the storefront (DESIGN §17): a product, the cart, the checkout and an
 * order's confirmation. Server-rendered, with shop.js for the cart (this origin's localStorage) and the
 * live quote. The pages use no inline script or style, so the storefront's CSP applies unchanged.
 */
const shopRoutes: FastifyPluginAsyncTypebox<StorefrontNeeds> = async (fastify, { commerce, installations, checkoutHooks }) => {
  const adminOrigin = () => new URL(fastify.origins.adminUrl).origin
  const maxLineQuantity = fastify.config.checkoutRules.maxLineQuantity

  async function send (reply: FastifyReply, html: string, statusCode = 200) {
    return await reply.code(statusCode).headers(securityHeaders(contentSecurityPolicy(null, [adminOrigin()]))).send(html)
  }

  async function businessOf (slug: string): Promise<BusinessRow | null> {
    return isSlug(slug) ? await commerce.businessBySlug(slug) : null
  }

  fastify.get('/:businessSlug/products/:productSlug', { schema: { hide: true, params: ProductParams } }, async (request, reply) => {
    const business = await businessOf(request.params.businessSlug)
    if (business === null) return await send(reply, renderShopNotFound(null, 'Store', 2), 404)
    const store = storeOf(business)
    const product = isSlug(request.params.productSlug)
      ? await commerce.getProductBySlug(business.id, request.params.productSlug).catch(notFoundAsNull)
      : null
    if (product === null || !product.isAvailable || product.status !== 'ACTIVE') return await send(reply, renderShopNotFound(store, 'Product', 2), 404)
    const { id, name, slug, description, price, category, imageUrl } = product
    return await send(reply, renderProductPage(store, { id, name, slug, description, price, currency: business.currency, category, imageUrl }, maxLineQuantity))
  })

  fastify.get('/:businessSlug/cart', { schema: { hide: true, params: StoreParams } }, async (request, reply) => {
    const business = await businessOf(request.params.businessSlug)
    if (business === null) return await send(reply, renderShopNotFound(null, 'Store', 1), 404)
    return await send(reply, renderCartPage(storeOf(business), maxLineQuantity))
  })

  fastify.get('/:businessSlug/checkout', { schema: { hide: true, params: StoreParams } }, async (request, reply) => {
    const business = await businessOf(request.params.businessSlug)
    if (business === null) return await send(reply, renderShopNotFound(null, 'Store', 1), 404)
    return await send(reply, renderCheckoutPage(storeOf(business), maxLineQuantity))
  })

  fastify.get('/:businessSlug/orders/:orderId', { schema: { hide: true, params: OrderParams } }, async (request, reply) => {
    const business = await businessOf(request.params.businessSlug)
    if (business === null) return await send(reply, renderShopNotFound(null, 'Store', 2), 404)
    const store = storeOf(business)
    const order = isOrderId(request.params.orderId) ? await commerce.getOrder(business.id, request.params.orderId).catch(notFoundAsNull) : null
    // only guest orders have a public confirmation; no customer details are shown on it
    if (order === null || !order.isGuest) return await send(reply, renderShopNotFound(store, 'Order', 2), 404)
    return await send(reply, renderOrderPage(store, order, maxLineQuantity))
  })
}

function notFoundAsNull (error: unknown): null {
  if (error instanceof HttpError && error.statusCode === 404) return null
  throw error
}

export default shopRoutes
