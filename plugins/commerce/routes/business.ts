import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { errorResponses } from '../../../server/schemas.ts'
import { BusinessPatchBodySchema, DashboardQuerySchema, DashboardSchema, MerchantBusinessSchema, type Business } from '../schemas.ts'
import { SECURITY, TAGS, businessOf, type MerchantRouteOptions } from './common.ts'

const businessRoutes: FastifyPluginAsyncTypebox<MerchantRouteOptions> = async (fastify, { commerce, guards }) => {
  const onRequest = guards.requireMerchant
  const withStorefront = (business: Business) => ({ ...business, storefrontUrl: fastify.origins.storeUrl(business.slug) })

  fastify.get('/business', {
    config: { permission: null },
    onRequest,
    schema: {
      tags: TAGS,
      operationId: 'getMerchantBusiness', summary: 'Your business profile',
      security: SECURITY,
      response: { 200: MerchantBusinessSchema, ...errorResponses(401, 403, 404) }
    }
  }, async (request) => withStorefront(await commerce.getBusinessProfile(businessOf(request))))

  fastify.patch('/business', {
    config: { permission: 'settings' },
    onRequest,
    schema: {
      tags: TAGS,
      operationId: 'updateMerchantBusiness', summary: 'Change your business profile (the slug stays)',
      security: SECURITY,
      body: BusinessPatchBodySchema,
      response: { 200: MerchantBusinessSchema, ...errorResponses(400, 401, 403, 404) }
    }
  }, async (request) => withStorefront(await commerce.updateBusinessProfile(businessOf(request), request.body)))

  fastify.get('/analytics/dashboard', {
    config: { permission: 'orders' },
    onRequest,
    schema: {
      tags: TAGS,
      operationId: 'getMerchantAnalyticsDashboard', summary: 'Revenue, orders and top products for a period (default the last 30 days)',
      security: SECURITY,
      querystring: DashboardQuerySchema,
      response: { 200: DashboardSchema, ...errorResponses(400, 401, 403, 404) }
    }
  }, async (request) => await commerce.dashboard(businessOf(request), request.query))
}

export default businessRoutes
