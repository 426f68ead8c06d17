import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from '@sinclair/typebox'
import { errorResponses } from '../../server/schemas.ts'
import { AppIdParams } from '../apps/schemas.ts'
import { EarningsQuery, EarningsSchema } from './schemas.ts'
import type { Billing, BillingNeeds } from './service.ts'

const tags = ['portal']
const security = [{ developerJwt: [] }]

/** The developer's earnings per app (DESIGN §23): their own apps only, another developer's is a 404. */
const developerBillingRoutes: FastifyPluginAsyncTypebox<{ billing: Billing, apps: BillingNeeds['apps'], guards: BillingNeeds['guards'] }> = async (fastify, { billing, apps, guards }) => {
  fastify.addHook('onRequest', guards.requireRole('DEVELOPER'))

  fastify.get('/:appId/earnings', {
    schema: {
      tags, security, operationId: 'getAppEarnings', summary: 'Earnings per month: gross, platform fee, net; paying installations, recurring revenue',
      description: 'Months newest first, zero-filled, by the month an invoice period ended (UTC). The fee is PLATFORM_FEE_PERCENT of each invoice line, half up. `testGross` is what test charges asked, never invoiced.',
      params: AppIdParams, querystring: EarningsQuery, response: { 200: EarningsSchema, ...errorResponses(400, 401, 403, 404) }
    }
  }, async (request) => {
    const app = await apps.ownedApp(request.user.sub, request.params.appId)
    return await billing.earnings(app.id, request.query.months ?? 12)
  })

  fastify.get('/:appId/earnings.csv', {
    schema: {
      tags, security, operationId: 'getAppEarningsCsv', summary: 'Every invoice line of the app, as CSV',
      description: 'Header `invoice_id,business_id,period_start,period_end,charge_id,kind,description,amount,currency,fee,net`; amounts in minor units.',
      params: AppIdParams, produces: ['text/csv'], response: { 200: Type.String({ description: 'text/csv' }), ...errorResponses(401, 403, 404) }
    }
  }, async (request, reply) => {
    const app = await apps.ownedApp(request.user.sub, request.params.appId)
    return await reply.type('text/csv; charset=utf-8').header('content-disposition', `attachment; filename="${app.slug}-earnings.csv"`).send(await billing.earningsCsv(app.id))
  })
}

export default developerBillingRoutes
