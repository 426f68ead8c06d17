import fp from 'fastify-plugin'
import { PREFIX } from '../../server/api-prefixes.ts'
import checkoutHooksService from './service.ts'
import hookCallConsoleRoutes from './console-routes.ts'

/** Checkout hooks: the hook runner and the checkout with the installed apps' hooks, and the console's hook call log. */
export default fp(async function checkoutHooksCapability (fastify) {
  await fastify.register(checkoutHooksService)
  await fastify.register(hookCallConsoleRoutes, { prefix: PREFIX.developerApps })
}, { name: 'checkout-hooks-capability', dependencies: ['auth-guards'] })
