import { eq, inArray } from 'drizzle-orm'
import { users, type Role } from '../../server/db/schema/index.ts'
import type { Db, Executor } from '../../server/db/client.ts'
import { newId } from '../../server/db/ids.ts'
import type { Clock } from '../../server/clock.ts'
import type { CommerceService } from '../commerce/service.ts'
import { conflict, fieldError, tooManyRequests, unauthorized } from './errors.ts'
import { hashPassword, verifyPassword } from './passwords.ts'
import { passwordProblem } from './password-policy.ts'
import type { RegisterBody, User } from './schemas.ts'
import type { AccountThrottle } from './throttle.ts'

type UserRow = typeof users.$inferSelect

/** What the account functions that need more than the executor run against. */
export interface AuthContext {
  executor: Db
  clock: Clock
  /** commerce creates a merchant's business, in the sign-up's transaction */
  commerce: Pick<CommerceService, 'in' | 'findBusiness'>
  throttle: AccountThrottle
}

export function publicUser (row: UserRow): User {
  return { id: row.id, email: row.email, name: row.name, role: row.role, businessId: row.businessId, createdAt: row.createdAt.toISOString() }
}

export async function findByEmail (executor: Executor, email: string): Promise<UserRow | null> {
  const [row] = await executor.select().from(users).where(eq(users.email, email.toLowerCase())).limit(1)
  return row ?? null
}

/**
 * A merchant gets their business; a developer gets a sandbox business with sample data.
 * All of it commits together or not at all.
 */
/** `demoLogin`: an account the platform seeds with its printed demo password (npm start's demo), not a password a person chose. */
export interface RegisterOptions {
  demoLogin?: boolean
  /** Joins a business in the sign-up's transaction (a staff invitation) instead of creating one for a MERCHANT. */
  join?: (tx: Executor, user: { id: string, email: string }) => Promise<void>
}

export async function register ({ executor, clock, commerce }: AuthContext, input: RegisterBody, options: RegisterOptions = {}): Promise<User> {
  const businessName = input.businessName?.trim()
  if (input.role === 'MERCHANT' && options.join === undefined && (businessName === undefined || businessName === '')) {
    throw fieldError('business_name_required', '/businessName', 'is required for a MERCHANT')
  }
  const email = input.email.toLowerCase()
  const weak = options.demoLogin === true ? null : passwordProblem(input.password, [email, input.name])
  if (weak !== null) throw fieldError('password_weak', '/password', weak)
  const passwordHash = await hashPassword(input.password)
  const row = await executor.transaction(async (tx) => {
    const id = newId('usr')
    const [inserted] = await tx.insert(users).values({ id, email, passwordHash, name: input.name.trim(), role: input.role })
      .onConflictDoNothing({ target: users.email }).returning()
    if (inserted === undefined) throw conflict('email_taken', 'An account with this email already exists')
    if (options.join !== undefined && input.role === 'MERCHANT') {
      await options.join(tx, inserted)
      return inserted
    }
    const business = await commerce.in(tx).createBusiness({
      name: input.role === 'MERCHANT' ? businessName as string : `${input.name.trim()}'s sandbox`,
      ownerId: id,
      email,
      isSandbox: input.role === 'DEVELOPER'
    })
    if (input.role === 'DEVELOPER') await commerce.in(tx).seedSample(business.id, clock.now())
    const [updated] = await tx.update(users).set({ businessId: business.id }).where(eq(users.id, id)).returning()
    await options.join?.(tx, updated)
    return updated
  })
  return publicUser(row)
}

/**
 * Same answer, and about the same time, for an unknown email and a wrong password. An account with
 * too many recent failures is refused with 429 before any hash is computed (unknown emails too, so
 * the answer tells nothing about which accounts exist).
 */
export async function login ({ executor, throttle }: AuthContext, email: string, password: string, address: string): Promise<User> {
  const account = email.trim().toLowerCase()
  const waitMs = await throttle.waitMs(account, address)
  if (waitMs > 0) {
    const seconds = Math.ceil(waitMs / 1000)
    throw tooManyRequests('sign_in_throttled', `Too many failed sign-ins for this account; try again in ${seconds} s`, { 'retry-after': String(seconds) })
  }
  const row = await findByEmail(executor, email)
  const ok = await verifyPassword(password, row?.passwordHash ?? null)
  if (row === null || !ok) {
    await throttle.failed(account, address)
    throw unauthorized('credentials_invalid', 'Invalid email or password')
  }
  await throttle.succeeded(account, address)
  return publicUser(row)
}

export async function findById (executor: Executor, id: string): Promise<User | null> {
  const [row] = await executor.select().from(users).where(eq(users.id, id)).limit(1)
  return row === undefined ? null : publicUser(row)
}

/** Creates the reviewer account, or resets its password and role to what the configuration says. */
export async function ensureUser (executor: Executor, input: { email: string, password: string, name: string, role: Role }): Promise<User> {
  const email = input.email.toLowerCase()
  const passwordHash = await hashPassword(input.password)
  const [row] = await executor.insert(users).values({ id: newId('usr'), email, passwordHash, name: input.name, role: input.role })
    .onConflictDoUpdate({ target: users.email, set: { passwordHash, role: input.role } }).returning()
  return publicUser(row)
}

/** Display names by user id (the developer names of marketplace listings). */
export async function namesOf (executor: Executor, ids: string[]): Promise<Map<string, string>> {
  if (ids.length === 0) return new Map()
  const rows = await executor.select({ id: users.id, name: users.name }).from(users).where(inArray(users.id, [...new Set(ids)]))
  return new Map(rows.map((row) => [row.id, row.name]))
}

/** True once any account exists (the demo seed runs only on an empty database). */
export async function hasUsers (executor: Executor): Promise<boolean> {
  const [row] = await executor.select({ id: users.id }).from(users).limit(1)
  return row !== undefined
}

export async function findBusiness ({ commerce }: AuthContext, id: string) {
  return await commerce.findBusiness(id)
}
