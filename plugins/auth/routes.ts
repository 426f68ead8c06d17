import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from '@sinclair/typebox'
import { errorResponses } from '../../server/schemas.ts'
import { notFound } from './errors.ts'
import { registerPerMinuteLimit } from '../../server/redis.ts'
import { LoginBodySchema, MeSchema, RegisterBodySchema, SessionSchema } from './schemas.ts'
import type { User } from './schemas.ts'
import type { Guards } from './guards.ts'
import type { AuthService } from './service.ts'

/** Opt-in route config: sign-in and sign-up count against the client address's budget. */
const PER_ADDRESS = { rateLimit: {} }

/** /auth: register, log in, who am I. */
const authRoutes: FastifyPluginAsyncTypebox<{ auth: AuthService, guards: Pick<Guards, 'requireUser' | 'signSession' | 'revokeSession'> }> = async (fastify, { auth, guards }) => {
  // per client address (DESIGN §16): a guesser spraying accounts from one address is slowed down too
  await registerPerMinuteLimit(fastify, {
    max: fastify.config.authThrottle.perAddressPerMinute,
    key: (request) => request.ip,
    nameSpace: 'platform-auth-limit-',
    refusal: (max, after) => `Too many sign-in attempts from your address: ${max} per minute. Retry in ${after}.`
  })

  const session = (user: User) => ({
    token: guards.signSession({ sub: user.id, role: user.role, businessId: user.businessId, email: user.email }),
    user,
    businessId: user.businessId
  })

  fastify.post('/register', {
    config: PER_ADDRESS,
    schema: {
      tags: ['auth'],
      operationId: 'register', security: [], summary: 'Create a developer or merchant account',
      description: 'A MERCHANT gets their business (businessName required); a DEVELOPER gets a sandbox business with sample products, orders, reviews and pages.',
      body: RegisterBodySchema,
      response: { 201: SessionSchema, ...errorResponses(400, 409, 429) }
    }
  }, async (request, reply) => {
    const user = await auth.register(request.body)
    request.log.info({ userId: user.id, role: user.role }, 'account registered')
    return reply.code(201).send(session(user))
  })

  fastify.post('/login', {
    config: PER_ADDRESS,
    schema: {
      tags: ['auth'],
      operationId: 'login', security: [], summary: 'Sign in; returns a JWT valid 8 hours', description: 'Email and password; the JWT goes in `Authorization: Bearer` on portal, merchant and review routes. Repeated failures are throttled (429 with Retry-After).',
      body: LoginBodySchema,
      response: { 200: SessionSchema, ...errorResponses(400, 401, 429) }
    }
  }, async (request) => session(await auth.login(request.body.email, request.body.password, request.ip)))

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
      operationId: 'getMe', summary: 'The signed-in user and their business',
      security: [{ developerJwt: [] }],
      response: { 200: MeSchema, ...errorResponses(401, 404) }
    }
  }, async (request) => {
    const user = await auth.findById(request.user.sub)
    if (user === null) throw notFound('user_not_found', 'User')
    const business = user.businessId === null ? null : await auth.findBusiness(user.businessId)
    return {
      user,
      business: business === null ? null : { id: business.id, name: business.name, slug: business.slug, isSandbox: business.isSandbox }
    }
  })
}

export default authRoutes
