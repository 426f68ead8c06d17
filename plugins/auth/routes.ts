import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from '@sinclair/typebox'
import type { FastifyRequest } from 'fastify'
import { errorResponses } from '../../server/schemas.ts'
import { notFound } from './errors.ts'
import { registerPerMinuteLimit } from '../../server/redis.ts'
import { BusinessListSchema, InvitationInfoSchema, InvitationTokenParams, LoginBodySchema, MeSchema, RegisterBodySchema, SessionSchema, SwitchBusinessBodySchema } from './schemas.ts'
import type { User } from './schemas.ts'
import type { Guards } from './guards.ts'
import type { AuthService, StaffService } from './service.ts'
import type { Place } from './staff.ts'

/** Opt-in route config: sign-in and sign-up count against the client address's budget. */
const PER_ADDRESS = { rateLimit: {} }

/** /auth: register, log in, who am I. */
const authRoutes: FastifyPluginAsyncTypebox<{ auth: AuthService, staff: StaffService, guards: Pick<Guards, 'requireUser' | 'signSession' | 'revokeSession'> }> = async (fastify, { auth, staff, guards }) => {
  // per client address (DESIGN §16): a guesser spraying accounts from one address is slowed down too
  await registerPerMinuteLimit(fastify, {
    max: fastify.config.authThrottle.perAddressPerMinute,
    key: (request) => request.ip,
    nameSpace: 'platform-auth-limit-',
    refusal: (max, after) => `Too many sign-in attempts from your address: ${max} per minute. Retry in ${after}.`
  })

  /** The session's account (404 when it was deleted since). */
  async function signedIn (request: FastifyRequest): Promise<User> {
    const user = await auth.findById(request.user.sub)
    if (user === null) throw notFound('user_not_found', 'User')
    return user
  }

  /** The business of a place, as a session shows it (null when it is gone). */
  async function businessOf (place: Place | null) {
    if (place === null) return null
    const business = await auth.findBusiness(place.businessId)
    if (business === null) return null
    const { id, name, slug, isSandbox } = business
    return { id, name, slug, isSandbox, role: place.businessRole, permissions: place.permissions }
  }

  /** A session on `place` (the user's first business when not given): its claims say who acts there (DESIGN §24). */
  async function session (user: User, place?: Place | null) {
    const where = place === undefined ? await staff.placeOf(user) : place
    const business = await businessOf(where)
    const claims = business === null || where === null
      ? { sub: user.id, role: user.role, businessId: null, email: user.email }
      : {
          sub: user.id,
          role: user.role,
          businessId: business.id,
          email: user.email,
          businessRole: where.businessRole,
          permissions: where.permissions,
          ...(where.memberId === undefined ? {} : { memberId: where.memberId })
        }
    return { token: guards.signSession(claims), user, businessId: business?.id ?? null, business }
  }

  fastify.post('/register', {
    config: PER_ADDRESS,
    schema: {
      tags: ['auth'],
      operationId: 'register', security: [], summary: 'Create a developer or merchant account',
      description: 'A MERCHANT gets their business (businessName required); a DEVELOPER gets a sandbox business with sample products, orders, reviews and pages. ' +
        'With `invitationToken` (a staff invitation, DESIGN §24) a MERCHANT account gets no business of its own and joins the inviting one as STAFF; the email must be the invited one.',
      body: RegisterBodySchema,
      response: { 201: SessionSchema, ...errorResponses(400, 403, 409, 410, 429) }
    }
  }, async (request, reply) => {
    const token = request.body.invitationToken
    let joined: Place | null = null
    const user = await auth.register(request.body, token === undefined
      ? {}
      : { join: async (tx, account) => { joined = await staff.acceptInvitation(tx, token, account) } })
    request.log.info({ userId: user.id, role: user.role, businessId: (joined as Place | null)?.businessId }, 'account registered')
    return reply.code(201).send(await session(user, joined ?? undefined))
  })

  fastify.post('/login', {
    config: PER_ADDRESS,
    schema: {
      tags: ['auth'],
      operationId: 'login', security: [], summary: 'Sign in; returns a JWT valid 8 hours', description: 'Email and password; the JWT goes in `Authorization: Bearer` on portal, merchant and review routes. Repeated failures are throttled (429 with Retry-After).',
      body: LoginBodySchema,
      response: { 200: SessionSchema, ...errorResponses(400, 401, 429) }
    }
  }, async (request) => await session(await auth.login(request.body.email, request.body.password, request.ip)))

  fastify.post('/logout', {
    onRequest: guards.requireUser,
    schema: {
      tags: ['auth'],
      operationId: 'logout',
      summary: 'Sign out: the session token is refused everywhere from now on',
      security: [{ developerJwt: [] }],
      response: { 204: Type.Null({ description: 'Signed out' }), ...errorResponses(401) }
    }
  }, async (request, reply) => {
    await guards.revokeSession(request.user)
    return await reply.code(204).send(null)
  })

  fastify.get('/me', {
    onRequest: guards.requireUser,
    schema: {
      tags: ['auth'],
      operationId: 'getMe', summary: "The signed-in user and the session's business, with their role and permissions there",
      security: [{ developerJwt: [] }],
      response: { 200: MeSchema, ...errorResponses(401, 404) }
    }
  }, async (request) => {
    const user = await signedIn(request)
    const { businessId, businessRole, permissions, memberId } = request.user
    const place = businessId === null || businessRole === undefined || permissions === undefined ? null : { businessId, businessRole, permissions, memberId }
    return { user, business: await businessOf(place) }
  })

  fastify.get('/businesses', {
    onRequest: guards.requireUser,
    schema: {
      tags: ['auth'],
      operationId: 'listMyBusinesses', summary: 'The businesses the signed-in user belongs to, with their role in each',
      description: 'Their own business (or developer sandbox) first, as OWNER, then those they joined as STAFF: what the admin\'s business switcher lists.',
      security: [{ developerJwt: [] }],
      response: { 200: BusinessListSchema, ...errorResponses(401) }
    }
  }, async (request) => {
    const user = await signedIn(request)
    return { data: await staff.businessesOf(user) }
  })

  fastify.post('/switch-business', {
    onRequest: guards.requireUser,
    schema: {
      tags: ['auth'],
      operationId: 'switchBusiness', summary: 'A new session on another business of the signed-in user',
      description: 'The current session stays valid; the admin replaces its token with the new one. 404 `business_not_found` for a business the user does not belong to.',
      security: [{ developerJwt: [] }],
      body: SwitchBusinessBodySchema,
      response: { 200: SessionSchema, ...errorResponses(400, 401, 404) }
    }
  }, async (request) => {
    const user = await signedIn(request)
    const place = await staff.placeOf(user, request.body.businessId)
    if (place === null) throw notFound('business_not_found', 'Business')
    return await session(user, place)
  })

  fastify.get('/invitations/:token', {
    schema: {
      tags: ['auth'],
      operationId: 'getInvitation', security: [], summary: 'What a staff invitation offers (the invitation screen, before signing in)',
      description: 'The business, the invited email and the permissions. A used, withdrawn or expired link is 410 `invitation_invalid`.',
      params: InvitationTokenParams,
      response: { 200: InvitationInfoSchema, ...errorResponses(400, 410) }
    }
  }, async (request) => await staff.invitationInfo(request.params.token))

  fastify.post('/invitations/:token/accept', {
    onRequest: guards.requireUser,
    schema: {
      tags: ['auth'],
      operationId: 'acceptInvitation', summary: 'Join a business as staff; answers a session on it',
      description: 'The signed-in account\'s email must be the invited one (403 `invitation_email_mismatch`). A used, withdrawn or expired link is 410 `invitation_invalid`; someone already in the business, 409 `already_member`.',
      security: [{ developerJwt: [] }],
      params: InvitationTokenParams,
      response: { 200: SessionSchema, ...errorResponses(400, 401, 403, 409, 410) }
    }
  }, async (request) => {
    const user = await signedIn(request)
    const place = await staff.join(request.params.token, user)
    request.log.info({ userId: user.id, businessId: place.businessId }, 'staff invitation accepted')
    return await session(user, place)
  })
}

export default authRoutes
