import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
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

export default appApiRoutes
