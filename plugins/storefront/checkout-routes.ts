import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from '@sinclair/typebox'
import { errorResponses } from '../../server/schemas.ts'
import { notFound } from '../../server/http-errors.ts'
import { GuestOrderBodySchema, OrderSchema } from '../commerce/schemas.ts'
import { CreatePaymentAnswerSchema, PaymentMethodSchema } from '../checkout-hooks/schemas.ts'
import { STOREFRONT_WRITE_LIMIT } from './rate-limit.ts'

const tags = ['storefront']
const Params = Type.Object({ businessSlug: Type.String({ minLength: 1, maxLength: 64 }) })
const QuoteBody = Type.Omit(GuestOrderBodySchema, ['customer', 'paymentMethod'], { title: 'QuoteBody', additionalProperties: false })
const QuoteSchema = Type.Object({
  subtotal: Type.Integer(),
  deliveryFee: Type.Integer({ description: 'After checkout.shipping_rates' }),
  promoDiscount: Type.Integer(),
  appDiscount: Type.Integer({ description: 'Sum of order.calculate_discounts, capped at the subtotal' }),
  discountReasons: Type.Array(Type.String()),
  total: Type.Integer(),
  currency: Type.String(),
  paymentMethods: Type.Array(PaymentMethodSchema)
}, { title: 'CheckoutQuote' })
const PlacedSchema = Type.Object({ order: OrderSchema, payment: Type.Optional(CreatePaymentAnswerSchema) }, { title: 'PlacedOrder' })

/** Customer checkout on a merchant's storefront: quote, then place the order. Public. */
const checkoutRoutes: FastifyPluginAsyncTypebox = async (fastify) => {
  async function businessIdOf (slug: string): Promise<string> {
    const business = await fastify.commerce.businessBySlug(slug)
    if (business === null) throw notFound('Store')
    return business.id
  }

  fastify.post('/:businessSlug/api/checkout/quote', {
    config: STOREFRONT_WRITE_LIMIT,
    schema: {
      tags, operationId: 'quoteCheckout', security: [], summary: 'Quote a cart: delivery fee, discounts and payment methods from the installed apps',
      description: 'DELIVERY needs no address here (a shopper asks for a delivery price before typing one); `locality` is passed to the shipping-rate hooks. The order requires the address.',
      params: Params, body: QuoteBody, response: { 200: QuoteSchema, ...errorResponses(400, 404, 422, 429) }
    }
  }, async (request) => await fastify.checkoutHooks.quote(await businessIdOf(request.params.businessSlug), request.body))

  fastify.post('/:businessSlug/api/orders', {
    config: STOREFRONT_WRITE_LIMIT,
    schema: {
      tags, operationId: 'placeStoreOrder', security: [], summary: 'Place a guest order',
      description: 'Runs the checkout hooks; order.validate refusing → 422 with the reason. For an app payment method, `payment` is the app’s checkout.create_payment answer; if the app cannot answer, 502 and the order stays unpaid.',
      params: Params, body: GuestOrderBodySchema, response: { 201: PlacedSchema, ...errorResponses(400, 404, 409, 422, 429, 502) }
    }
  }, async (request, reply) => {
    const placed = await fastify.checkoutHooks.placeOrder(await businessIdOf(request.params.businessSlug), request.body)
    request.log.info({ orderId: placed.order.id }, 'storefront order placed')
    return reply.code(201).send(placed)
  })
}

export default checkoutRoutes
