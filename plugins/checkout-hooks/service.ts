import fp from 'fastify-plugin'
import { createHookRunner } from './runner.ts'
import { createCheckout, type CheckoutDeps } from './checkout.ts'

// What other capabilities may use without reaching into the runner (app checks call one hook as the checkout would)
export type { ActiveHook, HookResult } from './runner.ts'

export const PRUNE_JOB = 'checkout-hooks.prune'
/** Daily, at a quiet minute, beside the webhook log's. */
const PRUNE_CRON = '19 3 * * *'

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * The hook runner (hooksOf, run, call, flush) and the checkout with the installed apps' hooks
     * (quote, placeOrder), used by the storefront and POST /app-api/orders.
     */
    checkoutHooks: ReturnType<typeof createCheckoutHooks>
  }
}

/**
 * The hook runner, a small factory over its state (the HTTP agent, the buffered call log and its
 * timer), and the checkout's plain functions (checkout.ts) bound to it.
 */
export function createCheckoutHooks (deps: Parameters<typeof createHookRunner>[0] & Omit<CheckoutDeps, 'runner' | 'executor'>) {
  const runner = createHookRunner(deps)
  return { ...runner, ...createCheckout({ ...deps, executor: deps.db, runner }) }
}

export default fp(async function checkoutHooksService (fastify) {
  const checkoutHooks = createCheckoutHooks({
    db: fastify.db,
    clock: fastify.clock,
    encryptionKey: fastify.config.encryptionKey,
    outbound: fastify.outbound,
    onCalled: (hookPoint, result) => {
      fastify.metrics.hookCall(hookPoint, result.ok, result.durationMs)
      fastify.appAnalytics.recordVersionUse(result.hook.appId, result.hook.installationId, 'hooks', result.hook.apiVersion)
    },
    currencyOf: async (businessId) => (await fastify.commerce.getBusinessProfile(businessId)).currency,
    onLogError: (error) => fastify.log.warn({ err: error }, 'hook call log write failed'),
    onLogged: (calls) => {
      fastify.appAnalytics.recordHookCalls(calls)
      for (const call of calls) {
        fastify.liveEvents.publish(call.appId, {
          type: 'hookCall', id: call.id, installationId: call.installationId, hookPoint: call.hookPoint, success: call.success,
          statusCode: call.statusCode ?? null, error: call.error ?? null, durationMs: call.durationMs, relayed: call.relayed === true,
          at: call.createdAt.toISOString()
        })
      }
    },
    relay: async (request) => await fastify.relay.call(request),
    schedulePaymentExpiry: fastify.schedulePaymentExpiry,
    rules: fastify.config.checkoutRules,
    commerce: fastify.commerce
  })
  fastify.decorate('checkoutHooks', checkoutHooks)
  // an order's checkout view (GET /merchant/orders/:id/checkout), asked by commerce through the interface commerce defines
  fastify.commerceProviders.orderHooks.provide({
    callsOfOrder: checkoutHooks.callsOfOrder,
    appOfInstallation: async (businessId, installationId) =>
      await fastify.installations.getForBusiness(businessId, installationId).then((row) => row.appId, () => null)
  })
  fastify.addHook('onClose', async () => { await checkoutHooks.close() })
  if (fastify.config.processRole !== 'web') {
    await fastify.jobs.work(PRUNE_JOB, async () => {
      fastify.log.info({ hookCalls: await checkoutHooks.pruneCalls(fastify.config.deliveryLogRetentionDays) }, 'hook call log pruned')
    })
    await fastify.jobs.boss.schedule(PRUNE_JOB, PRUNE_CRON)
  }
}, { name: 'checkout-hooks', dependencies: ['db', 'clock', 'config', 'outbound', 'jobs', 'commerce', 'payment-expiry', 'live-events', 'app-analytics', 'metrics', 'relay', 'installations'] })
