import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { IdParams, errorResponses } from '../../../server/schemas.ts'
import { GuestOrderBodySchema, OrderListQuerySchema, OrderStatusBodySchema } from '../../commerce/schemas.ts'
import { CURSOR_MODE, OrderAnswer, OrderPage, SECURITY, TAGS, businessOf, presentOrder, presentOrders, syncQueryOf, type AppApiRouteOptions } from './common.ts'
import { inCursorMode } from '../../../sdk/src/contract/bulk-exports.ts'

const orderRoutes: FastifyPluginAsyncTypebox<AppApiRouteOptions> = async (fastify, { commerce, checkoutHooks, appAuth, syncSettleSeconds }) => {
  const canRead = appAuth.requireScope('read_orders')
  const canWrite = appAuth.requireScope('write_orders')

  fastify.get('/orders', {
    preValidation: canRead,
    schema: {
      tags: TAGS,
      operationId: 'listOrders', summary: 'List orders, newest first, optionally by status (read_orders)', description: 'The token\'s business only. Paginated envelope, optionally filtered by status; `limit` above its maximum is clamped.' + CURSOR_MODE,
      security: SECURITY,
      querystring: OrderListQuerySchema,
      response: { 200: OrderPage, ...errorResponses(400, 401, 403, 429) }
    }
  }, async (request) => {
    const query = syncQueryOf(request, request.query)
    if (inCursorMode(query)) return presentOrders(await commerce.syncOrders(businessOf(request), query, syncSettleSeconds))
    return presentOrders(await commerce.listOrders(businessOf(request), request.query))
  })

  fastify.get('/orders/:id', {
    preValidation: canRead,
    schema: {
      tags: TAGS,
      operationId: 'getOrder', summary: 'Order by id (read_orders)', description: 'The token\'s business only: another business\'s order is a 404.',
      security: SECURITY,
      params: IdParams,
      response: { 200: OrderAnswer, ...errorResponses(400, 401, 403, 404, 429) }
    }
  }, async (request) => presentOrder(await commerce.getOrder(businessOf(request), request.params.id)))

  fastify.patch('/orders/:id/status', {
    preValidation: canWrite,
    schema: {
      tags: TAGS,
      operationId: 'updateOrderStatus', summary: 'Move an order to its next status (write_orders)',
      description: 'PENDING→CONFIRMED|CANCELLED; CONFIRMED→PREPARING|CANCELLED; PREPARING→READY|CANCELLED; READY→IN_DELIVERY|DELIVERED|CANCELLED; IN_DELIVERY→DELIVERED|CANCELLED. Any other move is 409 and changes nothing. Emits order.status_changed, plus order.delivered or order.cancelled. Answers with the updated order.',
      security: SECURITY,
      params: IdParams,
      body: OrderStatusBodySchema,
      response: { 200: OrderAnswer, ...errorResponses(400, 401, 403, 404, 409, 429) }
    }
  }, async (request) => presentOrder(await commerce.updateOrderStatus(businessOf(request), request.params.id, request.body.status)))

  fastify.post('/orders', {
    preValidation: canWrite,
    schema: {
      tags: TAGS,
      operationId: 'createOrder', summary: 'Create a guest order (write_orders)',
      description: 'Prices come from the catalogue, never from the request. Runs the same checkout as the storefront, hooks included (for an app payment method, checkout.create_payment too; if that app cannot answer, 502 and the order stays unpaid). Unknown or unavailable product, unknown payment method or a refused order.validate → 422; not enough stock → 409. Emits order.created.',
      security: SECURITY,
      body: GuestOrderBodySchema,
      response: { 201: OrderAnswer, ...errorResponses(400, 401, 403, 409, 422, 429, 502) }
    }
  }, async (request, reply) => {
    const { order } = await checkoutHooks.placeOrder(businessOf(request), request.body)
    return reply.code(201).send(presentOrder(order))
  })
}

export default orderRoutes
