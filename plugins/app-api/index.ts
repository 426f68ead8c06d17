import fp from 'fastify-plugin'
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { PREFIX } from '../../server/api-prefixes.ts'
import type { CapabilityOptions } from '../../server/capability.ts'
import { registerApiCounting } from '../app-analytics/service.ts'
import type { AppAnalytics } from '../app-analytics/index.ts'
import type { ApiVersions } from '../api-versions/index.ts'
import { registerScopeUse } from '../app-checks/service.ts'
import type { AppChecks } from '../app-checks/index.ts'
import type { Commerce } from '../commerce/index.ts'
import { registerAppRateLimit, type Installations } from '../installations/index.ts'
import { webhookAppRoutes, type WebhooksPort } from '../webhooks/index.ts'
import { billingAppRoutes, type Billing } from '../billing/index.ts'
import { bulkExportAppRoutes, type BulkExports } from '../bulk-exports/index.ts'
import type { AppApiRouteOptions } from './routes/common.ts'
import businessRoutes from './routes/business.ts'
import orderRoutes from './routes/orders.ts'
import pageRoutes from './routes/pages.ts'
import paymentRoutes from './routes/payments.ts'
import productRoutes from './routes/products.ts'
import reviewRoutes from './routes/reviews.ts'
import { createFairness } from './fairness.ts'

declare module 'fastify' {
  interface FastifyRequest {
    /** Gives back this request's turn of its business's lane (fairness.ts); set once it has one. */
    releaseTurn?: () => void
  }
}

/** What the App API needs of the others: the data its routes serve, the token check, and what its scope counts and versions. */
export interface AppApiNeeds {
  commerce: Commerce
  checkoutHooks: AppApiRouteOptions['checkoutHooks']
  installations: Pick<Installations, 'appAuth'>
  appAnalytics: Pick<AppAnalytics, 'recordApiRequest'>
  appChecks: Pick<AppChecks, 'recordScopeUse'>
  apiVersions: Pick<ApiVersions, 'registerVersioning'>
  webhooks: WebhooksPort
  billing: Billing
  bulkExports: BulkExports
}

/** The App API: data of the token's business only, each route behind its scope (DESIGN §7). */
const appApiRoutes: FastifyPluginAsyncTypebox<Omit<AppApiRouteOptions, 'syncSettleSeconds'>> = async (fastify, { commerce, checkoutHooks, appAuth }) => {
  const options: AppApiRouteOptions = { commerce, checkoutHooks, appAuth, syncSettleSeconds: fastify.config.syncSettleSeconds }
  // one business's requests take at most a few of the pool's connections at a time (fairness.ts)
  const fairness = createFairness({
    perBusiness: fastify.config.appApiBusinessConcurrency,
    waitMs: fastify.config.databaseAcquireTimeoutMs,
    queueLimit: 64
  })
  fastify.addHook('preHandler', async (request) => {
    // after the token check (preValidation): a request without an installation never got this far
    const installation = request.installation as { businessId: string } | null
    if (installation === null) return
    request.releaseTurn = await fairness.acquire(installation.businessId)
  })
  const giveBack = async (request: { releaseTurn?: () => void }) => { request.releaseTurn?.() }
  fastify.addHook('onResponse', giveBack)
  fastify.addHook('onRequestAbort', giveBack)

  await fastify.register(productRoutes, options)
  await fastify.register(orderRoutes, options)
  await fastify.register(paymentRoutes, options)
  await fastify.register(reviewRoutes, options)
  await fastify.register(businessRoutes, options)
  await fastify.register(pageRoutes, options)
}

/**
 * What apps call with their access token, /app-api (billing's /app-api/billing and bulk exports'
 * /app-api/bulk-exports too) and webhooks' /webhooks, in one scope: one token check (installations'
 * requireAppToken) and one rate-limit budget per installation cover both; every answer is counted for
 * the app's analytics and each scope used for the app checks. The token is read, the call counted
 * (X-RateLimit-* on every answer, 401 included: DESIGN §21), then a bad token refused.
 */
export default fp<CapabilityOptions<AppApiNeeds, null>>(async function appApiCapability (fastify, { expose, ...needs }) {
  const { commerce, checkoutHooks, installations, appAnalytics, appChecks, apiVersions, webhooks, billing, bulkExports } = needs
  // nothing of the App API is called by another capability
  expose(null)
  const { appAuth } = installations
  await fastify.register(async function appTokenScope (scope) {
    scope.addHook('onRequest', appAuth.identifyAppToken)
    registerApiCounting(scope, appAnalytics)
    registerScopeUse(scope, appChecks)
    await registerAppRateLimit(scope, { then: appAuth.requireAppToken })
    // after the token check: the version is the App-Api-Version header's or the installation's pin
    apiVersions.registerVersioning(scope)
    await scope.register(appApiRoutes, { prefix: PREFIX.appApi, commerce, checkoutHooks, appAuth })
    await scope.register(webhookAppRoutes, { prefix: PREFIX.webhooks, webhooks })
    await scope.register(billingAppRoutes, { prefix: `${PREFIX.appApi}/billing`, billing })
    await scope.register(bulkExportAppRoutes, { prefix: `${PREFIX.appApi}/bulk-exports`, bulkExports, appAuth })
  })
}, { name: 'app-api' })
