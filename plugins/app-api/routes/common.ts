import type { FastifyRequest } from 'fastify'
import type { CheckoutPipeline } from '../../merchant/checkout-service.ts'

export const TAGS = ['app-api']
export const SECURITY = [{ appToken: [] }]

/** Options of the App API routes, normalised once in plugins/app-api/index.ts. */
export interface AppApiOptions {
  /** The checkout pipeline a guest order runs for this request (the hooks plug in here). */
  checkoutPipeline: (request: FastifyRequest) => CheckoutPipeline
}

/** The token's business: every App API query is scoped to it. */
export const businessOf = (request: FastifyRequest): string => request.installation.businessId
