import fp from 'fastify-plugin'
import { eq, inArray } from 'drizzle-orm'
import { users, type Role } from '../../server/db/schema/index.ts'
import type { Db } from '../../server/db/client.ts'
import { newId } from '../../server/db/ids.ts'
import { conflict, fieldError, tooManyRequests, unauthorized } from './errors.ts'
import { rateLimitRedis } from '../../server/redis.ts'
import type { CommerceService } from '../commerce/service.ts'
import { hashPassword, verifyPassword } from './passwords.ts'
import { passwordProblem } from './password-policy.ts'
import type { RegisterBody, User } from './schemas.ts'
import { createAccountThrottle, databaseFailureStore, redisFailureStore, type AccountThrottle } from './throttle.ts'
import type { Clock } from '../../server/clock.ts'

type UserRow = typeof users.$inferSelect

declare module 'fastify' {
  interface FastifyInstance {
    /** Accounts: registration (with the business), login, the reviewer account. The only writer of users. */
    auth: AuthService
  }
}

export function publicUser (row: UserRow): User {
  return { id: row.id, email: row.email, name: row.name, role: row.role, businessId: row.businessId, createdAt: row.createdAt.toISOString() }
}

export function createAuthService (db: Db, clock: Clock, commerce: CommerceService, throttle: AccountThrottle) {
  async function findByEmail (email: string): Promise<UserRow | null> {
    const [row] = await db.select().from(users).where(eq(users.email, email.toLowerCase())).limit(1)
    return row ?? null
  }

  /**
   * A merchant gets their business; a developer gets a sandbox business with sample data.
   * All of it commits together or not at all.
   */
  async function register (input: RegisterBody): Promise<User> {
    const businessName = input.businessName?.trim()
    if (input.role === 'MERCHANT' && (businessName === undefined || businessName === '')) {
      throw fieldError('business_name_required', '/businessName', 'is required for a MERCHANT')
    }
    const email = input.email.toLowerCase()
    const weak = passwordProblem(input.password, [email, input.name])
    if (weak !== null) throw fieldError('password_weak', '/password', weak)
    const passwordHash = await hashPassword(input.password)
    const row = await db.transaction(async (tx) => {
      const id = newId('usr')
      const [inserted] = await tx.insert(users).values({ id, email, passwordHash, name: input.name.trim(), role: input.role })
        .onConflictDoNothing({ target: users.email }).returning()
      if (inserted === undefined) throw conflict('email_taken', 'An account with this email already exists')
      const business = await commerce.in(tx).createBusiness({
        name: input.role === 'MERCHANT' ? businessName as string : `${input.name.trim()}'s sandbox`,
        ownerId: id,
        email,
        isSandbox: input.role === 'DEVELOPER'
      })
      if (input.role === 'DEVELOPER') await commerce.in(tx).seedSample(business.id, clock.now())
      const [updated] = await tx.update(users).set({ businessId: business.id }).where(eq(users.id, id)).returning()
      return updated
    })
    return publicUser(row)
  }

  /**
   * Same answer, and about the same time, for an unknown email and a wrong password. An account with
   * too many recent failures is refused with 429 before any hash is computed (unknown emails too, so
   * the answer tells nothing about which accounts exist).
   */
  async function login (email: string, password: string, address: string): Promise<User> {
    const account = email.trim().toLowerCase()
    const waitMs = await throttle.waitMs(account, address)
    if (waitMs > 0) {
      const seconds = Math.ceil(waitMs / 1000)
      throw tooManyRequests('sign_in_throttled', `Too many failed sign-ins for this account; try again in ${seconds} s`, { 'retry-after': String(seconds) })
    }
    const row = await findByEmail(email)
    const ok = await verifyPassword(password, row?.passwordHash ?? null)
    if (row === null || !ok) {
      await throttle.failed(account, address)
      throw unauthorized('credentials_invalid', 'Invalid email or password')
    }
    await throttle.succeeded(account, address)
    return publicUser(row)
  }

  async function findById (id: string): Promise<User | null> {
    const [row] = await db.select().from(users).where(eq(users.id, id)).limit(1)
    return row === undefined ? null : publicUser(row)
  }

  /** Creates the reviewer account, or resets its password and role to what the configuration says. */
  async function ensureUser (input: { email: string, password: string, name: string, role: Role }): Promise<User> {
    const email = input.email.toLowerCase()
    const passwordHash = await hashPassword(input.password)
    const [row] = await db.insert(users).values({ id: newId('usr'), email, passwordHash, name: input.name, role: input.role })
      .onConflictDoUpdate({ target: users.email, set: { passwordHash, role: input.role } }).returning()
    return publicUser(row)
  }

  /** Display names by user id (the developer names of marketplace listings). */
  async function namesOf (ids: string[]): Promise<Map<string, string>> {
    if (ids.length === 0) return new Map()
    const rows = await db.select({ id: users.id, name: users.name }).from(users).where(inArray(users.id, [...new Set(ids)]))
    return new Map(rows.map((row) => [row.id, row.name]))
  }

  /** True once any account exists (the demo seed runs only on an empty database). */
  async function hasUsers (): Promise<boolean> {
    const [row] = await db.select({ id: users.id }).from(users).limit(1)
    return row !== undefined
  }

  return { register, login, findById, findByEmail, ensureUser, namesOf, hasUsers, findBusiness: async (id: string) => await commerce.findBusiness(id) }
}

export type AuthService = ReturnType<typeof createAuthService>

export default fp(async function authService (fastify) {
  const redis = rateLimitRedis(fastify)
  const store = redis === undefined ? databaseFailureStore(fastify.db, fastify.clock) : redisFailureStore(redis)
  const throttle = createAccountThrottle(store, { ...fastify.config.authThrottle, clock: fastify.clock })
  fastify.decorate('auth', createAuthService(fastify.db, fastify.clock, fastify.commerce, throttle))
  if (fastify.config.reviewer !== null) {
    const reviewer = await fastify.auth.ensureUser({ ...fastify.config.reviewer, name: 'Reviewer', role: 'REVIEWER' })
    fastify.log.info({ email: reviewer.email }, 'reviewer account ensured')
  }
}, { name: 'auth', dependencies: ['db', 'clock', 'config', 'commerce'] })
