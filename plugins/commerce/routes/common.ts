import type { FastifyRequest } from 'fastify'
import { forbidden } from '../errors.ts'

export const TAGS = ['merchant']
export const SECURITY = [{ developerJwt: [] }]

/** The merchant's business: every query is scoped to it. */
export function businessOf (request: FastifyRequest): string {
  const businessId = request.user.businessId
  if (businessId === null) throw forbidden('business_missing', 'This account has no business')
  return businessId
}
