import fp from 'fastify-plugin'
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { PREFIX } from '../../server/api-prefixes.ts'
import { registerApiCounting } from '../app-analytics/service.ts'
import { registerVersioning } from '../api-versions/index.ts'
import { registerScopeUse } from '../app-checks/service.ts'
import { registerAppRateLimit } from '../installations/index.ts'
import { webhookAppRoutes } from '../webhooks/index.ts'
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

/** The App API: data of the token's business only, each route behind its scope (DESIGN §7). */
const appApiRoutes: FastifyPluginAsyncTypebox = async (fastify) => {
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

  await fastify.register(productRoutes)
  await fastify.register(orderRoutes)
  await fastify.register(paymentRoutes)
  await fastify.register(reviewRoutes)
  await fastify.register(businessRoutes)
  await fastify.register(pageRoutes)
}

/**
 * What apps call with their access token, /app-api and webhooks' /webhooks, in one scope: one token
 * check (installations' requireAppToken) and one rate-limit budget per installation cover both; every
 * answer is counted for the app's analytics and each scope used for the app checks. The token is read,
 * the call counted (X-RateLimit-* on every answer, 401 included: DESIGN §21), then a bad token refused.
 */
export default fp(async function appApiCapability (fastify) {
  await fastify.register(async function appTokenScope (scope) {
    scope.addHook('onRequest', scope.identifyAppToken)
    registerApiCounting(scope)
    registerScopeUse(scope)
    await registerAppRateLimit(scope, { then: scope.requireAppToken })
    // after the token check: the version is the App-Api-Version header's or the installation's pin
    registerVersioning(scope)
    await scope.register(appApiRoutes, { prefix: PREFIX.appApi })
    await scope.register(webhookAppRoutes, { prefix: PREFIX.webhooks })
  })
}, { name: 'app-api-capability', dependencies: ['app-auth', 'app-analytics', 'app-checks', 'webhooks', 'api-versions'] })
