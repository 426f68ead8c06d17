import type { FastifyInstance } from 'fastify'
import type { AppAnalytics } from '../app-analytics/index.ts'
import type { Apps } from '../apps/index.ts'
import type { Guards } from '../auth/guards.ts'
import type { Commerce } from '../commerce/index.ts'
import type { Installations } from '../installations/index.ts'
import type { Relay } from '../relay/index.ts'
import { createHookRunner } from './runner.ts'
import { createCheckout, type CheckoutDeps } from './checkout.ts'

// What other capabilities may use without reaching into the runner (app checks call one hook as the checkout would)
export type { ActiveHook, HookResult } from './runner.ts'

export const PRUNE_JOB = 'checkout-hooks.prune'
/** Daily, at a quiet minute, beside the webhook log's. */
const PRUNE_CRON = '19 3 * * *'

/**
 * The hook runner, a small factory over its state (the HTTP agent, the buffered call log and its
 * timer), and the checkout's plain functions (checkout.ts) bound to it.
 */
export function createCheckoutHooks (deps: Parameters<typeof createHookRunner>[0] & Omit<CheckoutDeps, 'runner' | 'executor'>) {
  const runner = createHookRunner(deps)
  return { ...runner, ...createCheckout({ ...deps, executor: deps.db, runner }) }
}

/**
 * Checkout hooks' port (server/capability.ts): the hook runner (hooksOf, run, call, flush) and the
 * checkout with the installed apps' hooks (quote, placeOrder), used by the storefront and POST /app-api/orders.
 */
export type CheckoutHooks = ReturnType<typeof createCheckoutHooks>

/** What checkout hooks needs of the others. */
export interface CheckoutHooksNeeds {
  commerce: CheckoutDeps['commerce'] & Pick<Commerce, 'getBusinessProfile' | 'businessNamesOf' | 'schedulePaymentExpiry' | 'providers'>
  apps: Pick<Apps, 'ownedApp' | 'findByIds'>
  installations: Pick<Installations, 'getForBusiness'>
  appAnalytics: Pick<AppAnalytics, 'recordVersionUse' | 'recordHookCalls'>
  relay: Pick<Relay, 'call'>
  guards: Pick<Guards, 'requireRole'>
}

export async function startCheckoutHooks (fastify: FastifyInstance, needs: CheckoutHooksNeeds): Promise<CheckoutHooks> {
  const { commerce, apps, installations, appAnalytics, relay } = needs
  const checkoutHooks = createCheckoutHooks({
    db: fastify.db,
    clock: fastify.clock,
    encryptionKey: fastify.config.encryptionKey,
    outbound: fastify.outbound,
    onCalled: (hookPoint, result) => {
      fastify.metrics.hookCall(hookPoint, result.ok, result.durationMs)
      appAnalytics.recordVersionUse(result.hook.appId, result.hook.installationId, 'hooks', result.hook.apiVersion)
    },
    currencyOf: async (businessId) => (await commerce.getBusinessProfile(businessId)).currency,
    onLogError: (error) => fastify.log.warn({ err: error }, 'hook call log write failed'),
    onLogged: (calls) => {
      appAnalytics.recordHookCalls(calls)
      for (const call of calls) {
        fastify.liveEvents.publish(call.appId, {
          type: 'hookCall', id: call.id, installationId: call.installationId, hookPoint: call.hookPoint, success: call.success,
          statusCode: call.statusCode ?? null, error: call.error ?? null, durationMs: call.durationMs, relayed: call.relayed === true,
          at: call.createdAt.toISOString()
        })
      }
    },
    relay: async (request) => await relay.call(request),
    schedulePaymentExpiry: commerce.schedulePaymentExpiry,
    rules: fastify.config.checkoutRules,
    commerce
  })
  // an order's checkout view (GET /merchant/orders/:id/checkout), asked by commerce through the interface commerce defines
  commerce.providers.orderHooks.provide({
    callsOfOrder: checkoutHooks.callsOfOrder,
    appOfInstallation: async (businessId, installationId) =>
      await installations.getForBusiness(businessId, installationId).then((row) => row.appId, () => null),
    appNamesOf: async (appIds) => new Map((await apps.findByIds(appIds)).map((app) => [app.id, app.name]))
  })
  fastify.addHook('onClose', async () => { await checkoutHooks.close() })
  if (fastify.config.processRole !== 'web') {
    await fastify.jobs.work(PRUNE_JOB, async () => {
      fastify.log.info({ hookCalls: await checkoutHooks.pruneCalls(fastify.config.deliveryLogRetentionDays) }, 'hook call log pruned')
    })
    await fastify.jobs.boss.schedule(PRUNE_JOB, PRUNE_CRON)
  }
  return checkoutHooks
}
