import fp from 'fastify-plugin'
import { createHookRunner } from './runner.ts'
import { createCheckout } from './checkout.ts'

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * The hook runner (hooksOf, run, call, flush) and the checkout with the installed apps' hooks
     * (quote, placeOrder), used by the storefront and POST /app-api/orders.
     */
    checkoutHooks: ReturnType<typeof createCheckoutHooks>
  }
}

export function createCheckoutHooks (deps: Parameters<typeof createHookRunner>[0] & Omit<Parameters<typeof createCheckout>[0], 'runner'>) {
  const runner = createHookRunner(deps)
  return { ...runner, ...createCheckout({ ...deps, runner }) }
}

export default fp(async function checkoutHooksService (fastify) {
  const checkoutHooks = createCheckoutHooks({
    db: fastify.db,
    encryptionKey: fastify.config.encryptionKey,
    production: fastify.config.production,
    onLogError: (error) => fastify.log.warn({ err: error }, 'hook call log write failed'),
    schedulePaymentExpiry: fastify.schedulePaymentExpiry
  })
  fastify.decorate('checkoutHooks', checkoutHooks)
  fastify.addHook('onClose', async () => { await checkoutHooks.close() })
}, { name: 'checkout-hooks', dependencies: ['db', 'config', 'payment-expiry'] })
