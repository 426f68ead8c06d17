import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { errorResponses, PaginationQuery } from '../../server/schemas.ts'
import { ChargeDecisionSchema, ChargeParams, InvoiceListSchema, MerchantBillingSchema, MerchantChargeSchema } from './schemas.ts'
import type { Billing, BillingNeeds } from './service.ts'

const tags = ['billing']
const security = [{ developerJwt: [] }]

/** The merchant's side of app billing (DESIGN §23): approvals, subscriptions, invoices; the own business only. */
const merchantBillingRoutes: FastifyPluginAsyncTypebox<{ billing: Billing, guards: BillingNeeds['guards'] }> = async (fastify, { billing, guards }) => {
  fastify.addHook('onRequest', guards.requireMerchant)
  const businessOf = (request: { user: { businessId: string | null } }) => request.user.businessId as string

  fastify.get('/billing', {
    config: { permission: 'billing' },
    schema: {
      tags, security, operationId: 'getMerchantBilling', summary: 'Active subscriptions, charges to approve, usage against caps, the next invoice',
      response: { 200: MerchantBillingSchema, ...errorResponses(401, 403) }
    }
  }, async (request) => await billing.merchantBilling(businessOf(request)))

  fastify.get('/invoices', {
    config: { permission: 'billing' },
    schema: {
      tags, security, operationId: 'listMerchantInvoices', summary: 'Invoices, newest first, with their lines',
      description: 'One per 30-day cycle in which something was owed: recurring fees prorated, purchases, usage; test charges never.',
      querystring: PaginationQuery(), response: { 200: InvoiceListSchema, ...errorResponses(400, 401, 403) }
    }
  }, async (request) => await billing.invoices(businessOf(request), request.query))

  fastify.get('/charges/:id', {
    config: { permission: 'billing' },
    schema: {
      tags, security, operationId: 'getMerchantCharge', summary: 'A charge an app asked for (the approval screen)',
      params: ChargeParams, response: { 200: MerchantChargeSchema, ...errorResponses(401, 403, 404) }
    }
  }, async (request) => await billing.merchantCharge(businessOf(request), request.params.id))

  for (const decision of ['approve', 'decline'] as const) {
    fastify.post(`/charges/:id/${decision}`, {
      config: { permission: 'billing' },
      schema: {
        tags, security, operationId: decision === 'approve' ? 'approveCharge' : 'declineCharge',
        summary: decision === 'approve' ? 'Approve a charge' : 'Decline a charge',
        description: `The charge, with \`redirectUrl\`: the app's returnUrl with \`charge_id\` and \`status\`. 409 \`charge_not_pending\` once decided, \`charge_expired\` after 48 hours.${decision === 'approve' ? ' An approved subscription replaces the installation\'s ACTIVE one.' : ''}`,
        params: ChargeParams, response: { 200: ChargeDecisionSchema, ...errorResponses(401, 403, 404, 409) }
      }
    }, async (request) => {
      const decided = await billing.decide(businessOf(request), request.params.id, decision)
      request.log.info({ chargeId: decided.id, status: decided.status }, 'charge decided')
      return decided
    })
  }

  fastify.post('/subscriptions/:id/cancel', {
    config: { permission: 'billing' },
    schema: {
      tags, security, operationId: 'cancelMerchantSubscription', summary: 'Cancel an app\'s subscription',
      description: 'Invoiced up to now, prorated. 409 `charge_not_active` unless ACTIVE.',
      params: ChargeParams, response: { 200: MerchantChargeSchema, ...errorResponses(401, 403, 404, 409) }
    }
  }, async (request) => await billing.cancelByMerchant(businessOf(request), request.params.id))
}

export default merchantBillingRoutes
