import { randomUUID } from 'node:crypto'
import fp from 'fastify-plugin'
import jwt from '@fastify/jwt'
import type { FastifyReply, FastifyRequest, preHandlerAsyncHookHandler } from 'fastify'
import type { Role } from '../../server/db/schema/index.ts'
import type { SessionClaims, VerifiedSession } from './session.ts'
import { forbidden, unauthorized } from './errors.ts'
import { listenForCache } from '../../server/db/listen.ts'
import { createRevocations, SESSION_REVOKED_CHANNEL } from './revocations.ts'
import type { CapabilityOptions } from '../../server/capability.ts'
import { CLI_TOKEN_PREFIX, CLI_TOKEN_ROOT, createCliTokenService, type CliTokenService } from './cli-tokens.ts'

/** Short-lived (DESIGN §14): a working day; a stolen token is worth hours, and logout ends it at once. */
export const TOKEN_LIFETIME = '8h'

export type { SessionClaims, VerifiedSession }

declare module '@fastify/jwt' {
  interface FastifyJWT {
    payload: SessionClaims & { jti: string }
    user: VerifiedSession
  }
}

/** The session guards and sessions: what every actor route and the account routes use (a port, server/capability.ts). */
export interface Guards {
  /** preHandler: a valid session JWT of one of these roles (401 without one, 403 for another role). */
  requireRole: (...roles: Role[]) => preHandlerAsyncHookHandler
  /**
   * preHandler of every /merchant route: a MERCHANT on their business, or a DEVELOPER acting as the
   * merchant of their sandbox business (DESIGN §16); the session's businessId is the only business either reaches.
   */
  requireMerchant: preHandlerAsyncHookHandler
  /** preHandler: any valid session JWT. */
  requireUser: preHandlerAsyncHookHandler
  signSession: (claims: SessionClaims) => string
  /** Signs the request's session out everywhere (POST /auth/logout). */
  revokeSession: (session: VerifiedSession) => Promise<void>
  /**
   * Calls `listener` with the JWT id of each session signed out, in this process or another (its
   * NOTIFY): what a session holds open (a live tail) ends with it. Returns how to stop listening.
   */
  onSessionRevoked: (listener: (jti: string) => void) => () => void
  /** The developer CLI's tokens: issued by the device flow, listed and revoked in the portal. */
  cliTokens: CliTokenService
}

/** Session JWTs for people (developers, merchants, reviewers), their revocation, and the guards that check them. */
export default fp<CapabilityOptions<object, Guards>>(async function authGuards (fastify, { expose }) {
  await fastify.register(jwt, { secret: fastify.config.jwtSecret, sign: { expiresIn: TOKEN_LIFETIME } })
  // a small factory over its state: the revoked ids in memory, their listeners, whether NOTIFY is live
  const revocations = createRevocations(fastify.db, fastify.clock)
  // listen first, then load: a logout in between is in the table or in a notification
  await listenForCache(fastify, SESSION_REVOKED_CHANNEL, 'session revocation list', revocations, (payload) => revocations.received(payload))
  await revocations.start()

  const cliTokens = createCliTokenService({ executor: fastify.db, clock: fastify.clock, revocations })

  async function verifySession (request: FastifyRequest): Promise<void> {
    const header = request.headers.authorization
    if (header === undefined || !/^Bearer\s+\S+$/i.test(header)) throw unauthorized('session_missing', 'Missing bearer token: sign in and send Authorization: Bearer <token>')
    const bearer = header.replace(/^Bearer\s+/i, '')
    if (bearer.startsWith(CLI_TOKEN_PREFIX)) {
      const session = await cliTokens.verify(bearer)
      if (session === null) throw unauthorized('cli_token_invalid', 'CLI token expired or revoked: run `app-platform login` again')
      // a route's pattern, so `/developer/../auth/me` spellings cannot slip past
      const route = request.routeOptions.url ?? request.url
      if (!route.startsWith(CLI_TOKEN_ROOT)) throw forbidden('cli_token_scope', 'A CLI token reaches the developer portal and console (/developer/...) only')
      request.user = session
      return
    }
    try {
      await request.jwtVerify()
    } catch {
      throw unauthorized('session_invalid', 'Invalid or expired session token')
    }
    if (typeof request.user.jti !== 'string' || await revocations.isRevoked(request.user.jti)) throw unauthorized('session_revoked', 'Session expired or signed out')
  }

  const requireRole = (...roles: Role[]) => async function (request: FastifyRequest, _reply: FastifyReply) {
    await verifySession(request)
    if (!roles.includes(request.user.role)) throw forbidden('role_forbidden', `This endpoint requires the ${roles.join(' or ')} role`)
  }
  expose({
    signSession: (claims: SessionClaims) => fastify.jwt.sign({ ...claims, jti: randomUUID() }),
    revokeSession: async (session: VerifiedSession) => {
      await revocations.revoke(session.jti, session.sub, new Date(session.exp * 1000))
    },
    cliTokens,
    onSessionRevoked: (listener: (jti: string) => void) => revocations.onRevoked(listener),
    requireUser: async function (request: FastifyRequest, _reply: FastifyReply) {
      await verifySession(request)
    },
    requireRole,
    // a developer's businessId is their sandbox (set at sign-up), so the same scoping holds
    requireMerchant: requireRole('MERCHANT', 'DEVELOPER')
  })
}, { name: 'auth-guards', dependencies: ['config', 'db'] })
