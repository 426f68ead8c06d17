import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { IdParams, Paginated, errorResponses } from '../../../server/schemas.ts'
import type { Commerce } from '../service.ts'
import { MerchantOrderListQuerySchema, OrderCheckoutSchema, OrderSchema, OrderStatusBodySchema, type OrderCheckout } from '../schemas.ts'
import { SECURITY, TAGS, businessOf, type MerchantRouteOptions } from './common.ts'

const orderRoutes: FastifyPluginAsyncTypebox<MerchantRouteOptions> = async (fastify, { commerce, guards }) => {
  const onRequest = guards.requireMerchant

  fastify.get('/orders', {
    config: { permission: 'orders' },
    onRequest,
    schema: {
      tags: TAGS,
      operationId: 'listMerchantOrders', summary: 'List your orders, newest first, optionally by status or number',
      security: SECURITY,
      querystring: MerchantOrderListQuerySchema,
      response: { 200: Paginated(OrderSchema), ...errorResponses(400, 401, 403) }
    }
  }, async (request) => await commerce.listOrders(businessOf(request), request.query))

  fastify.get('/orders/:id', {
    config: { permission: 'orders' },
    onRequest,
    schema: {
      tags: TAGS,
      operationId: 'getMerchantOrder', summary: 'One of your orders',
      security: SECURITY,
      params: IdParams,
      response: { 200: OrderSchema, ...errorResponses(400, 401, 403, 404) }
    }
  }, async (request) => await commerce.getOrder(businessOf(request), request.params.id))

  fastify.get('/orders/:id/checkout', {
    config: { permission: 'orders' },
    onRequest,
    schema: {
      tags: TAGS,
      operationId: 'getMerchantOrderCheckout', summary: 'What the apps did in the checkout that placed an order',
      description: "The payment method and the app that supplied it, each app's discount with its reason, and every hook call of the checkout with its outcome. Orders placed before hook calls were linked to orders, or whose calls are older than the hook call log's retention, have no calls.",
      security: SECURITY,
      params: IdParams,
      response: { 200: OrderCheckoutSchema, ...errorResponses(400, 401, 403, 404) }
    }
  }, async (request) => await orderCheckout(commerce, businessOf(request), request.params.id))

  fastify.patch('/orders/:id/status', {
    config: { permission: 'orders' },
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
  }, async (request) => await commerce.updateOrderStatus(businessOf(request), request.params.id, request.body.status))
}

export default orderRoutes

/** The order's checkout as the hook call log recorded it, with the apps' names (an app since deleted has none). */
async function orderCheckout (commerce: Commerce, businessId: string, orderId: string): Promise<OrderCheckout> {
  const order = await commerce.getOrder(businessId, orderId)
  const hookLog = commerce.providers.orderHooks.value
  const calls = await hookLog.callsOfOrder(businessId, order.id)
  const separator = order.paymentMethod.indexOf(':')
  const methodInstallation = separator > 0 ? order.paymentMethod.slice(0, separator) : null
  let methodAppId = calls.find((call) => call.installationId === methodInstallation)?.appId ?? null
  if (methodInstallation !== null && methodAppId === null) {
    methodAppId = await hookLog.appOfInstallation(businessId, methodInstallation)
  }
  const appIds = [...new Set([...calls.map((call) => call.appId), ...(methodAppId === null ? [] : [methodAppId])])]
  const names = await hookLog.appNamesOf(appIds)
  const nameOf = (appId: string | null) => appId === null ? null : names.get(appId) ?? null
  return {
    paymentMethod: {
      id: order.paymentMethod,
      provider: methodInstallation === null ? 'platform' : 'app',
      methodId: separator > 0 ? order.paymentMethod.slice(separator + 1) : order.paymentMethod,
      appId: methodAppId,
      appName: nameOf(methodAppId)
    },
    discounts: calls.flatMap((call) => {
      const answer = call.answer as { discount?: unknown, reason?: unknown } | null
      if (call.hookPoint !== 'order.calculate_discounts' || !call.success || answer === null || typeof answer.discount !== 'number' || answer.discount <= 0) return []
      return [{ appId: call.appId, appName: nameOf(call.appId), amount: answer.discount, reason: typeof answer.reason === 'string' ? answer.reason : null }]
    }),
    hookCalls: calls.map((call) => ({
      id: call.id, hookPoint: call.hookPoint, appId: call.appId, appName: nameOf(call.appId), success: call.success, statusCode: call.statusCode,
      durationMs: call.durationMs, error: call.error, answer: call.answer, policyApplied: call.policyApplied, createdAt: call.createdAt
    }))
  }
}
