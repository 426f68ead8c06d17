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
import { PERMISSIONS, type Permission } from '../../sdk/src/contract/staff.ts'
import { PREFIX } from '../../server/api-prefixes.ts'
import { createMemberAccess, MEMBER_CHANGED_CHANNEL, type MemberAccessCache } from './member-access.ts'

/** Short-lived (DESIGN §14): a working day; a stolen token is worth hours, and logout ends it at once. */
export const TOKEN_LIFETIME = '8h'

export type { SessionClaims, VerifiedSession }

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * The permission a staff member needs for this /merchant route (DESIGN §24), or null for none:
     * every /merchant route declares it, or the server does not start.
     */
    permission?: Permission | null
  }
}

/** A /merchant route and the permission it declared: the route table the permission tests are generated from. */
export interface MerchantRoute { method: string, url: string, permission: Permission | null }

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
  /** What each staff member may do now: staff changes announce themselves through it. */
  members: MemberAccessCache
  /** Every /merchant route registered so far with its declared permission. */
  merchantRoutes: () => readonly MerchantRoute[]
}

/**
 * A route's entries in the /merchant route table: none outside /merchant; a /merchant route without
 * `config.permission` throws (the server does not start), so no route is left open to every member.
 */
export function declaredPermission (route: { method: string | string[], url: string, config?: { permission?: Permission | null } }): MerchantRoute[] {
  if (route.url !== PREFIX.merchant && !route.url.startsWith(`${PREFIX.merchant}/`)) return []
  const permission = route.config?.permission
  if (permission === undefined) throw new Error(`${String(route.method)} ${route.url} declares no permission (config.permission: one of ${PERMISSIONS.join(', ')}, or null)`)
  return [route.method].flat().map((method) => ({ method, url: route.url, permission }))
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
  const members = createMemberAccess(fastify.db)
  await listenForCache(fastify, MEMBER_CHANGED_CHANNEL, 'staff permissions cache', members, (memberId) => { members.changed(memberId) })
  members.setEnabled(true)

  // every /merchant route says which permission a staff member needs: a route that forgets is a start-up error
  const merchantRoutes: MerchantRoute[] = []
  fastify.addHook('onRoute', (route) => { merchantRoutes.push(...declaredPermission(route)) })

  /**
   * The session's place in its business: a STAFF session's member must still be there (removed: the
   * session ends at once), with the permissions it has now; any other session on a business owns it.
   */
  async function placeInBusiness (session: VerifiedSession): Promise<void> {
    if (session.memberId === undefined) {
      if (session.businessId !== null && (session.role === 'MERCHANT' || session.role === 'DEVELOPER')) {
        session.businessRole = 'OWNER'
        session.permissions = [...PERMISSIONS]
      }
      return
    }
    const access = await members.of(session.memberId)
    if (access === null || access.businessId !== session.businessId || access.userId !== session.sub) {
      throw unauthorized('session_revoked', 'You are no longer a member of this business: sign in again')
    }
    session.businessRole = 'STAFF'
    session.permissions = access.permissions
  }

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
    await placeInBusiness(request.user)
  }

  const requireRole = (...roles: Role[]) => async function (request: FastifyRequest, _reply: FastifyReply) {
    await verifySession(request)
    if (!roles.includes(request.user.role)) throw forbidden('role_forbidden', `This endpoint requires the ${roles.join(' or ')} role`)
    // the developer portal acts on the developer's own sandbox: a developer working as another business's staff switches back first
    if (request.user.businessRole === 'STAFF' && !roles.includes('MERCHANT')) {
      throw forbidden('role_forbidden', 'You are working as staff of another business: switch back to your own account to use the developer portal')
    }
  }
  const merchant = requireRole('MERCHANT', 'DEVELOPER')
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
    requireMerchant: async function (request: FastifyRequest, reply: FastifyReply) {
      await merchant(request, reply)
      const needed = request.routeOptions.config.permission
      if (needed !== undefined && needed !== null && request.user.permissions?.includes(needed) !== true) {
        throw forbidden('permission_missing', `Your staff account needs the ${needed} permission for this: ask the business's owner`)
      }
    },
    members,
    merchantRoutes: () => merchantRoutes
  })
}, { name: 'auth-guards', dependencies: ['config', 'db'] })
