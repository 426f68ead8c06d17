import type { FastifyRequest } from 'fastify'
import type { Guards } from '../../auth/guards.ts'
import type { Commerce } from '../service.ts'
import { forbidden } from '../errors.ts'

export const TAGS = ['merchant']
export const SECURITY = [{ developerJwt: [] }]

/** The merchant's business: every query is scoped to it. */
export function businessOf (request: FastifyRequest): string {
  const businessId = request.user.businessId
  if (businessId === null) throw forbidden('business_missing', 'This account has no business')
  return businessId
}

/** What each merchant route file is registered with: commerce's own port and the merchant guard. */
export interface MerchantRouteOptions {
  commerce: Commerce
  guards: Pick<Guards, 'requireMerchant'>
}
