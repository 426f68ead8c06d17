import fp from 'fastify-plugin'
import { PREFIX } from '../../server/api-prefixes.ts'
import type { CapabilityOptions } from '../../server/capability.ts'
import developerBillingRoutes from './developer-routes.ts'
import merchantBillingRoutes from './merchant-routes.ts'
import { startBilling, type Billing, type BillingNeeds } from './service.ts'

export type { Billing, BillingNeeds }

/**
 * The app-facing /app-api/billing routes: mounted by the App API inside its app-token scope, so that
 * one token check and one rate-limit budget per installation cover them (plugins/app-api/index.ts).
 */
export { default as billingAppRoutes } from './app-routes.ts'

/** App billing (DESIGN §23): charges, approvals, usage, invoices and earnings; the merchant's and the developer's routes. */
export default fp<CapabilityOptions<BillingNeeds, Billing>>(async function billingCapability (fastify, { expose, ...needs }) {
  const billing = await startBilling(fastify, needs)
  expose(billing)
  await fastify.register(merchantBillingRoutes, { prefix: PREFIX.merchant, billing, guards: needs.guards })
  await fastify.register(developerBillingRoutes, { prefix: PREFIX.developerApps, billing, apps: needs.apps, guards: needs.guards })
}, { name: 'billing' })
