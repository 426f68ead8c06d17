import fp from 'fastify-plugin'
import { createHookRunner } from './runner.ts'
import { createCheckout } from './checkout.ts'

declare module 'fastify' {
  interface FastifyInstance {
    hooks: ReturnType<typeof createHookRunner>
    /** The checkout with the installed apps' hooks: used by the storefront and POST /app-api/orders. */
    checkout: ReturnType<typeof createCheckout>
  }
}

export default fp(async function hooksPlugin (fastify) {
  const runner = createHookRunner({
    db: fastify.db,
    encryptionKey: fastify.config.encryptionKey,
    production: fastify.config.production,
    onLogError: (error) => fastify.log.warn({ err: error }, 'hook call log write failed')
  })
  fastify.decorate('hooks', runner)
  fastify.addHook('onClose', async () => { await runner.close() })
  fastify.decorate('checkout', createCheckout({ db: fastify.db, runner, schedulePaymentExpiry: fastify.schedulePaymentExpiry }))
}, { name: 'hooks', dependencies: ['db', 'config', 'payment-expiry'] })
