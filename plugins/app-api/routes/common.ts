import type { FastifyRequest } from 'fastify'

export const TAGS = ['app-api']
export const SECURITY = [{ appToken: [] }]

/** The token's business: every App API query is scoped to it. */
export const businessOf = (request: FastifyRequest): string => request.installation.businessId
