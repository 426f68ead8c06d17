import fp from 'fastify-plugin'
import { PREFIX } from '../../server/api-prefixes.ts'
import type { CapabilityOptions } from '../../server/capability.ts'
import { startCheckoutHooks, type CheckoutHooks, type CheckoutHooksNeeds } from './service.ts'
import hookCallConsoleRoutes from './console-routes.ts'

export type { CheckoutHooks, CheckoutHooksNeeds }

/** Checkout hooks: the hook runner and the checkout with the installed apps' hooks, and the console's hook call log. */
export default fp<CapabilityOptions<CheckoutHooksNeeds, CheckoutHooks>>(async function checkoutHooksCapability (fastify, { expose, ...needs }) {
  const checkoutHooks = await startCheckoutHooks(fastify, needs)
  expose(checkoutHooks)
  const { apps, commerce, guards } = needs
  await fastify.register(hookCallConsoleRoutes, { prefix: PREFIX.developerApps, apps, commerce, guards, checkoutHooks })
}, { name: 'checkout-hooks' })
