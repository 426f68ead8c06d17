import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { errorResponses, PaginationQuery } from '../../server/schemas.ts'
import {
  ChargeParams, CreateChargeBodySchema, PurchasePage, PurchaseSchema, SubscriptionPage, SubscriptionSchema, UsageRecordBodySchema, UsageRecordSchema
} from './schemas.ts'
import type { Billing } from './service.ts'

const tags = ['billing']
const security = [{ appToken: [] }]
const NO_SCOPE = 'No scope needed: an app sees only its own installation\'s charges.'

/**
 * /app-api/billing (DESIGN §23): the charges of the token's installation. Registered inside the App
 * API's app-token scope (plugins/app-api/index.ts): one token check and one rate-limit budget.
 */
const billingAppRoutes: FastifyPluginAsyncTypebox<{ billing: Billing }> = async (fastify, { billing }) => {
  fastify.post('/subscriptions', {
    schema: {
      tags, security, operationId: 'createAppSubscription', summary: 'Ask the merchant to approve a recurring plan',
      description: `${NO_SCOPE} PENDING until the merchant approves or declines at \`confirmationUrl\` (48 hours, then EXPIRED); approved, it replaces the installation's ACTIVE subscription. A test install's charges are always \`test: true\` and never invoiced; a production install charges only from the approved pricing. 400 \`plan_unknown\`, \`plan_kind_mismatch\` (a ONE_TIME plan), \`return_url_foreign\`.`,
      body: CreateChargeBodySchema, response: { 201: SubscriptionSchema, ...errorResponses(400, 401, 429) }
    }
  }, async (request, reply) => reply.code(201).send(await billing.createSubscription(request.installation, request.body)))

  fastify.get('/subscriptions', {
    schema: {
      tags, security, operationId: 'listAppSubscriptions', summary: 'The installation\'s subscriptions, newest first',
      description: NO_SCOPE, querystring: PaginationQuery(), response: { 200: SubscriptionPage, ...errorResponses(400, 401, 429) }
    }
  }, async (request) => await billing.listSubscriptions(request.installation, request.query))

  fastify.get('/subscriptions/:id', {
    schema: {
      tags, security, operationId: 'getAppSubscription', summary: 'A subscription, with its usage balance',
      description: `${NO_SCOPE} Another installation's is a 404.`, params: ChargeParams, response: { 200: SubscriptionSchema, ...errorResponses(401, 404, 429) }
    }
  }, async (request) => await billing.getSubscription(request.installation, request.params.id))

  fastify.post('/subscriptions/:id/cancel', {
    schema: {
      tags, security, operationId: 'cancelAppSubscription', summary: 'Cancel an ACTIVE subscription',
      description: `${NO_SCOPE} Invoiced up to now, prorated. 409 \`charge_not_active\` unless ACTIVE.`,
      params: ChargeParams, response: { 200: SubscriptionSchema, ...errorResponses(401, 404, 409, 429) }
    }
  }, async (request) => await billing.cancelByApp(request.installation, request.params.id))

  fastify.post('/subscriptions/:id/usage-records', {
    schema: {
      tags, security, operationId: 'createUsageRecord', summary: 'Record usage against the plan\'s capped amount',
      description: `${NO_SCOPE} 201 with the record and the period's balance; the same \`idempotencyKey\` again answers 200 with the first record and records nothing. Past the plan's \`cappedAmount\` in the current 30-day period: 422 \`usage_cap_exceeded\`, nothing recorded. Usage during a trial is invoiced.`,
      params: ChargeParams,
      body: UsageRecordBodySchema,
      response: { 200: UsageRecordSchema, 201: UsageRecordSchema, ...errorResponses(400, 401, 404, 409, 422, 429) }
    }
  }, async (request, reply) => {
    const { created, record } = await billing.recordUsage(request.installation, request.params.id, request.body)
    return reply.code(created ? 201 : 200).send(record)
  })

  fastify.post('/purchases', {
    schema: {
      tags, security, operationId: 'createAppPurchase', summary: 'Ask the merchant to approve a one-time purchase',
      description: `${NO_SCOPE} PENDING until the merchant decides at \`confirmationUrl\`; invoiced in the cycle it is approved in. 400 \`plan_unknown\`, \`plan_kind_mismatch\` (a RECURRING plan), \`return_url_foreign\`.`,
      body: CreateChargeBodySchema, response: { 201: PurchaseSchema, ...errorResponses(400, 401, 429) }
    }
  }, async (request, reply) => reply.code(201).send(await billing.createPurchase(request.installation, request.body)))

  fastify.get('/purchases', {
    schema: {
      tags, security, operationId: 'listAppPurchases', summary: 'The installation\'s one-time purchases, newest first',
      description: NO_SCOPE, querystring: PaginationQuery(), response: { 200: PurchasePage, ...errorResponses(400, 401, 429) }
    }
  }, async (request) => await billing.listPurchases(request.installation, request.query))
}

export default billingAppRoutes
