import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { IdParams, Paginated, errorResponses } from '../../../server/schemas.ts'
import { OrderListQuerySchema, OrderSchema, OrderStatusBodySchema } from '../schemas.ts'
import { SECURITY, TAGS, businessOf } from './common.ts'

const orderRoutes: FastifyPluginAsyncTypebox = async (fastify) => {
  const onRequest = fastify.requireMerchant

  fastify.get('/orders', {
    onRequest,
    schema: {
      tags: TAGS,
      operationId: 'listMerchantOrders', summary: 'List your orders, newest first, optionally by status',
      security: SECURITY,
      querystring: OrderListQuerySchema,
      response: { 200: Paginated(OrderSchema), ...errorResponses(400, 401, 403) }
    }
  }, async (request) => await fastify.commerce.listOrders(businessOf(request), request.query))

  fastify.get('/orders/:id', {
    onRequest,
    schema: {
      tags: TAGS,
      operationId: 'getMerchantOrder', summary: 'One of your orders',
      security: SECURITY,
      params: IdParams,
      response: { 200: OrderSchema, ...errorResponses(400, 401, 403, 404) }
    }
  }, async (request) => await fastify.commerce.getOrder(businessOf(request), request.params.id))

  fastify.patch('/orders/:id/status', {
    onRequest,
    schema: {
      tags: TAGS,
      operationId: 'updateMerchantOrderStatus', summary: 'Move an order to its next status',
      description: 'PENDING→CONFIRMED|CANCELLED; CONFIRMED→PREPARING|CANCELLED; PREPARING→READY|CANCELLED; READY→IN_DELIVERY|DELIVERED|CANCELLED; IN_DELIVERY→DELIVERED|CANCELLED. Any other move is 409. Emits order.status_changed, plus order.delivered or order.cancelled.',
      security: SECURITY,
      params: IdParams,
      body: OrderStatusBodySchema,
      response: { 200: OrderSchema, ...errorResponses(400, 401, 403, 404, 409) }
    }
  }, async (request) => await fastify.commerce.updateOrderStatus(businessOf(request), request.params.id, request.body.status))
}

export default orderRoutes
