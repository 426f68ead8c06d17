import fp from 'fastify-plugin'
import { bindExecutor, bindTo } from '../../server/db/bind.ts'
import { rateLimitRedis } from '../../server/redis.ts'
import { ensureUser, findBusiness, findByEmail, findById, hasUsers, login, namesOf, register, type AuthContext } from './accounts.ts'
import { createAccountThrottle, databaseFailureStore, redisFailureStore } from './throttle.ts'

export { publicUser, type AuthContext } from './accounts.ts'

declare module 'fastify' {
  interface FastifyInstance {
    /** Accounts: registration (with the business), login, the reviewer account. The only writer of users. */
    auth: AuthService
  }
}

/** The accounts' functions (accounts.ts) bound to the database and, for those that need them, commerce and the throttle. */
export function createAuthService (context: AuthContext) {
  return {
    ...bindExecutor(context.executor, { findById, findByEmail, ensureUser, namesOf, hasUsers }),
    ...bindTo(context, { register, login, findBusiness })
  }
}

export type AuthService = ReturnType<typeof createAuthService>

export default fp(async function authService (fastify) {
  const redis = rateLimitRedis(fastify)
  const store = redis === undefined ? databaseFailureStore(fastify.db, fastify.clock) : redisFailureStore(redis)
  // the throttle holds its failure store (memory, the database or Redis): a small factory over that state
  const throttle = createAccountThrottle(store, { ...fastify.config.authThrottle, clock: fastify.clock })
  fastify.decorate('auth', createAuthService({ executor: fastify.db, clock: fastify.clock, commerce: fastify.commerce, throttle }))
  if (fastify.config.reviewer !== null) {
    const reviewer = await fastify.auth.ensureUser({ ...fastify.config.reviewer, name: 'Reviewer', role: 'REVIEWER' })
    fastify.log.info({ email: reviewer.email }, 'reviewer account ensured')
  }
}, { name: 'auth', dependencies: ['db', 'clock', 'config', 'commerce'] })
