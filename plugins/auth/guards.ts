import fp from 'fastify-plugin'
import jwt from '@fastify/jwt'
import type { FastifyReply, FastifyRequest, preHandlerAsyncHookHandler } from 'fastify'
import type { Role } from '../../server/db/schema/index.ts'
import { forbidden, unauthorized } from '../../server/http-errors.ts'

export const TOKEN_LIFETIME = '12h'

export interface SessionClaims { sub: string, role: Role, businessId: string | null, email: string }

declare module '@fastify/jwt' {
  interface FastifyJWT {
    payload: SessionClaims
    user: SessionClaims
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    /** preHandler: a valid session JWT of one of these roles (401 without one, 403 for another role). */
    requireRole: (...roles: Role[]) => preHandlerAsyncHookHandler
    /** preHandler: any valid session JWT. */
    requireUser: preHandlerAsyncHookHandler
    signSession: (claims: SessionClaims) => string
  }
}

async function verifySession (request: FastifyRequest): Promise<void> {
  const header = request.headers.authorization
  if (header === undefined || !/^Bearer\s+\S+$/i.test(header)) throw unauthorized('Missing bearer token: sign in and send Authorization: Bearer <token>')
  try {
    await request.jwtVerify()
  } catch {
    throw unauthorized('Invalid or expired session token')
  }
}

/** Session JWTs for people (developers, merchants, reviewers) and the guards that check them. */
export default fp(async function authGuards (fastify) {
  await fastify.register(jwt, { secret: fastify.config.jwtSecret, sign: { expiresIn: TOKEN_LIFETIME } })
  fastify.decorate('signSession', (claims: SessionClaims) => fastify.jwt.sign(claims))
  fastify.decorate('requireUser', async function (request: FastifyRequest, _reply: FastifyReply) {
    await verifySession(request)
  })
  fastify.decorate('requireRole', (...roles: Role[]) => async function (request: FastifyRequest, _reply: FastifyReply) {
    await verifySession(request)
    if (!roles.includes(request.user.role)) throw forbidden(`This endpoint requires the ${roles.join(' or ')} role`)
  })
}, { name: 'auth-guards', dependencies: ['config'] })
