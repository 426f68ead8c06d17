import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { IdParams, errorResponses } from '../../../server/schemas.ts'
import { forbidden } from '../errors.ts'
import { PaymentOutcomeBodySchema } from '../schemas.ts'
import { OrderAnswer, SECURITY, TAGS, businessOf, presentOrder, type AppApiRouteOptions } from './common.ts'

const paymentRoutes: FastifyPluginAsyncTypebox<AppApiRouteOptions> = async (fastify, { commerce, checkoutHooks, appAuth }) => {
  fastify.post('/orders/:id/payment', {
    preValidation: appAuth.requireScope('write_payments'),
    schema: {
      tags: TAGS,
      operationId: 'reportPayment', summary: 'Report the outcome of an app-collected payment (write_payments)',
      description: 'For orders paid with this app’s own payment method (another app’s → 403) whose payment is PENDING: COMPLETED emits payment.completed; FAILED emits nothing (the catalog has no failure event). Any other order or payment state → 409. Answers with the updated order.',
      security: SECURITY,
      params: IdParams,
      body: PaymentOutcomeBodySchema,
      response: { 200: OrderAnswer, ...errorResponses(400, 401, 403, 404, 409, 429) }
    }
  }, async (request) => {
    const order = await commerce.findOrderRow(businessOf(request), request.params.id)
    // app method ids are `<installationId>:<id>`: only the installation that offered it settles it
    if (order.paymentMethodId !== null && !order.paymentMethodId.startsWith(`${request.installation.id}:`)) {
      throw forbidden('payment_method_other_app', 'This order is paid with another app’s payment method')
    }
    return presentOrder(request.body.status === 'COMPLETED'
      ? await commerce.completePayment(businessOf(request), request.params.id)
      : await commerce.failPayment(businessOf(request), request.params.id))
  })
}

export default paymentRoutes
