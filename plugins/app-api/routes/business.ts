import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { errorResponses } from '../../../server/schemas.ts'
import { BusinessSchema, DashboardQuerySchema, DashboardSchema } from '../../commerce/schemas.ts'
import { SECURITY, TAGS, businessOf, type AppApiRouteOptions } from './common.ts'

const businessRoutes: FastifyPluginAsyncTypebox<AppApiRouteOptions> = async (fastify, { commerce, checkoutHooks, appAuth }) => {
  fastify.get('/business', {
    preValidation: appAuth.requireScope('read_business'),
    schema: {
      tags: TAGS,
      operationId: 'getBusiness', summary: 'Business information (read_business)', description: 'The business the token was issued for: name, slug, contact, address, currency, locale and time zone.',
      security: SECURITY,
      response: { 200: BusinessSchema, ...errorResponses(401, 403, 404, 429) }
    }
  }, async (request) => await commerce.getBusinessProfile(businessOf(request)))

  fastify.get('/analytics/dashboard', {
    preValidation: appAuth.requireScope('read_analytics'),
    schema: {
      tags: TAGS,
      operationId: 'getAnalyticsDashboard', summary: 'Revenue, orders and top products for a period, default the last 30 days (read_analytics)',
      description: 'from and to are inclusive days in the business time zone, at most 366 days apart.',
      security: SECURITY,
      querystring: DashboardQuerySchema,
      response: { 200: DashboardSchema, ...errorResponses(400, 401, 403, 404, 429) }
    }
  }, async (request) => await commerce.dashboard(businessOf(request), request.query))
}

export default businessRoutes
