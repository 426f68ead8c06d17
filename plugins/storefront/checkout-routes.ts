import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from '@sinclair/typebox'
import { errorResponses } from '../../server/schemas.ts'
import { notFound } from './errors.ts'
import { GuestOrderBodySchema, OrderSchema } from '../commerce/schemas.ts'
import { CreatePaymentAnswerSchema, PaymentMethodSchema } from '../checkout-hooks/schemas.ts'
import { STOREFRONT_WRITE_LIMIT } from './rate-limit.ts'
import { qrImage } from './qr.ts'
import type { StorefrontNeeds } from './view.ts'

const tags = ['storefront']
const Params = Type.Object({ businessSlug: Type.String({ minLength: 1, maxLength: 64 }) })
const QuoteBody = Type.Omit(GuestOrderBodySchema, ['customer', 'paymentMethod'], { title: 'QuoteBody', additionalProperties: false })
const QuoteSchema = Type.Object({
  subtotal: Type.Integer(),
  deliveryFee: Type.Integer({ description: 'After checkout.shipping_rates' }),
  deliveryFeeSetBy: Type.Object({
    provider: Type.Union([Type.Literal('platform'), Type.Literal('app')]),
    appId: Type.Optional(Type.String()),
    appName: Type.Optional(Type.String())
  }, { description: 'Where the delivery fee came from: the platform\'s built-in fee, or the app whose checkout.shipping_rates answer set it' }),
  promoCode: Type.Union([Type.String(), Type.Null()], { description: 'The promo code applied, upper case; null without one' }),
  promoDiscount: Type.Integer({ description: 'What the promo code takes off the subtotal (capped at it); apps see it as order.calculate_discounts promoDiscount' }),
  appDiscount: Type.Integer({ description: 'Sum of order.calculate_discounts, capped at what the promo code left of the subtotal' }),
  discountReasons: Type.Array(Type.String(), { description: "The apps' reasons for their discounts" }),
  total: Type.Integer(),
  currency: Type.String(),
  paymentMethods: Type.Array(PaymentMethodSchema)
}, { title: 'CheckoutQuote' })
const StorePaymentSchema = Type.Composite([CreatePaymentAnswerSchema, Type.Object({
  qrImage: Type.Optional(Type.String({ description: 'The app\'s qrCode drawn by the platform as an SVG data URL (data:image/svg+xml;base64,...), for the shop page to show as an image' }))
})], { title: 'StorePayment' })
const PlacedSchema = Type.Object({
  order: OrderSchema,
  paymentExpiresAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], {
    description: 'When the unpaid order\'s stock hold ends (PAYMENT_EXPIRY_MINUTES, or the app payment\'s earlier expiresAt); the order is cancelled then unless paid or accepted'
  }),
  payment: Type.Optional(StorePaymentSchema)
}, { title: 'PlacedOrder' })

/** Customer checkout on a merchant's storefront: quote, then place the order. Public. */
const checkoutRoutes: FastifyPluginAsyncTypebox<StorefrontNeeds> = async (fastify, { commerce, installations, checkoutHooks }) => {
  async function businessIdOf (slug: string): Promise<string> {
    const business = await commerce.businessBySlug(slug)
    if (business === null) throw notFound('store_not_found', 'Store')
    return business.id
  }

  fastify.post('/:businessSlug/api/checkout/quote', {
    config: STOREFRONT_WRITE_LIMIT,
    schema: {
      tags, operationId: 'quoteCheckout', security: [], summary: 'Quote a cart: delivery fee, discounts and payment methods from the installed apps',
      description: 'DELIVERY needs no address here (a shopper asks for a delivery price before typing one); `locality` is passed to the shipping-rate hooks. The order requires the address. A `promoCode` that is unknown, inactive, expired or below its minimum subtotal is a 422 with `field: "promoCode"`.',
      params: Params, body: QuoteBody, response: { 200: QuoteSchema, ...errorResponses(400, 404, 422, 429) }
    }
  }, async (request) => await checkoutHooks.quote(await businessIdOf(request.params.businessSlug), request.body))

  fastify.post('/:businessSlug/api/orders', {
    config: STOREFRONT_WRITE_LIMIT,
    schema: {
      tags, operationId: 'placeStoreOrder', security: [], summary: 'Place a guest order',
      description: 'Runs the checkout hooks; order.validate refusing → 422 with the reason. For an app payment method, `payment` is the app’s checkout.create_payment answer (plus its qrCode drawn as an image); if the app cannot answer, 502 and the order stays unpaid. The order holds its stock until its payment expires (PAYMENT_EXPIRY_MINUTES, any method): unpaid and not yet accepted by the merchant then, it is cancelled and restocked. One line takes at most MAX_LINE_QUANTITY (400 above). Rate-limited per client address and store (429).',
      params: Params, body: GuestOrderBodySchema, response: { 201: PlacedSchema, ...errorResponses(400, 404, 409, 422, 429, 502) }
    }
  }, async (request, reply) => {
    const placed = await checkoutHooks.placeOrder(await businessIdOf(request.params.businessSlug), request.body, { holdStock: true })
    request.log.info({ orderId: placed.order.id }, 'storefront order placed')
    const payment = placed.payment === undefined ? undefined : { ...placed.payment, qrImage: await qrImage(placed.payment.qrCode) }
    return reply.code(201).send({ order: placed.order, paymentExpiresAt: placed.paymentExpiresAt, payment })
  })
}

export default checkoutRoutes
