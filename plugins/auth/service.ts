import type { FastifyInstance } from 'fastify'
import { bindExecutor, bindTo } from '../../server/db/bind.ts'
import { rateLimitRedis } from '../../server/redis.ts'
import { ensureUser, findBusiness, findByEmail, findById, hasUsers, login, namesOf, register, type AuthContext } from './accounts.ts'
import { createAccountThrottle, databaseFailureStore, redisFailureStore } from './throttle.ts'
import { acceptInvitation, businessesOf, invitationInfo, invite, join, listStaff, placeOf, removeMember, updateMember, withdrawInvitation, type StaffContext } from './staff.ts'
import { createMailer } from './mail.ts'
import type { MemberAccessCache } from './member-access.ts'

export { publicUser, type AuthContext } from './accounts.ts'

/** The accounts' functions (accounts.ts) bound to the database and, for those that need them, commerce and the throttle. */
export function createAuthService (context: AuthContext) {
  return {
    ...bindExecutor(context.executor, { findById, findByEmail, ensureUser, namesOf, hasUsers }),
    ...bindTo(context, { register, login, findBusiness })
  }
}

export type AuthService = ReturnType<typeof createAuthService>

/** A business's staff and their invitations (DESIGN §24), bound to their context. */
export function createStaffService (context: StaffContext) {
  return {
    ...bindTo(context, { listStaff, invite, withdrawInvitation, updateMember, removeMember, invitationInfo, acceptInvitation, join, placeOf, businessesOf })
  }
}

export type StaffService = ReturnType<typeof createStaffService>

/** Staff over the database, mailing invitations through SMTP_URL when it is set. */
export function startStaffService (fastify: FastifyInstance, commerce: StaffContext['commerce'], members: MemberAccessCache): StaffService {
  const mailer = createMailer(fastify.config.smtp)
  if (mailer !== null) fastify.addHook('onClose', async () => { mailer.close() })
  return createStaffService({
    executor: fastify.db, clock: fastify.clock, commerce, members, mailer, adminUrl: () => fastify.origins.adminUrl, secret: fastify.config.jwtSecret
  })
}

/** Accounts over the database, with the sign-in throttle; the reviewer account ensured (REVIEWER_EMAIL). */
export async function startAuthService (fastify: FastifyInstance, commerce: AuthContext['commerce']): Promise<AuthService> {
  const redis = rateLimitRedis(fastify)
  const store = redis === undefined ? databaseFailureStore(fastify.db, fastify.clock) : redisFailureStore(redis)
  // the throttle holds its failure store (memory, the database or Redis): a small factory over that state
  const throttle = createAccountThrottle(store, { ...fastify.config.authThrottle, clock: fastify.clock })
  const auth = createAuthService({ executor: fastify.db, clock: fastify.clock, commerce, throttle })
  if (fastify.config.reviewer !== null) {
    const reviewer = await auth.ensureUser({ ...fastify.config.reviewer, name: 'Reviewer', role: 'REVIEWER' })
    fastify.log.info({ email: reviewer.email }, 'reviewer account ensured')
  }
  return auth
}
