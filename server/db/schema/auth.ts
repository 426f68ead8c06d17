import { bigint, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core'
import type { Permission } from '../../../sdk/src/contract/staff.ts'
import { businesses } from './commerce.ts'

export const ROLES = ['DEVELOPER', 'MERCHANT', 'REVIEWER'] as const
export type Role = typeof ROLES[number]

export const users = pgTable('users', {
  id: text('id').primaryKey(),
  email: text('email').notNull().unique(),
  passwordHash: text('password_hash').notNull(),
  name: text('name').notNull(),
  role: text('role', { enum: ROLES }).notNull(),
  /** The merchant's business, or the developer's sandbox business. */
  businessId: text('business_id'),
  createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow()
}, (t) => [index('users_business_idx').on(t.businessId)])

/** Signed-out sessions (by JWT id) until their token would have expired anyway; every process keeps them in memory. */
export const revokedSessions = pgTable('revoked_sessions', {
  jti: text('jti').primaryKey(),
  userId: text('user_id').notNull(),
  expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull()
}, (t) => [index('revoked_sessions_expires_idx').on(t.expiresAt)])

/**
 * Sign-in failures by throttle key (an account, or an account and a client address) when there is no
 * Redis: every process of a split deployment sees the same counts (DESIGN §21).
 */
export const authFailures = pgTable('auth_failures', {
  key: text('key').primaryKey(),
  failures: integer('failures').notNull(),
  blockedUntil: bigint('blocked_until', { mode: 'number' }).notNull(),
  expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull()
}, (t) => [index('auth_failures_expires_idx').on(t.expiresAt)])

/**
 * Developer CLI tokens (DESIGN §19): issued by the device flow, stored as SHA-256 hashes, 30 days,
 * reaching /developer routes only; listed and revoked in the portal.
 */
export const cliTokens = pgTable('cli_tokens', {
  id: text('id').primaryKey(),
  tokenHash: text('token_hash').notNull().unique(),
  userId: text('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
  /** What the CLI said it runs on (the device flow's client name), shown in the portal. */
  name: text('name').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
  lastUsedAt: timestamp('last_used_at', { withTimezone: true, mode: 'date' }),
  revokedAt: timestamp('revoked_at', { withTimezone: true, mode: 'date' })
}, (t) => [index('cli_tokens_user_idx').on(t.userId)])

const stamp = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' })

/**
 * A business's staff (DESIGN §24): a user who joined by invitation, with their permissions. The
 * owner is not a row: the business's owner_id is the owner.
 */
export const businessMembers = pgTable('business_members', {
  id: text('id').primaryKey(),
  businessId: text('business_id').notNull().references(() => businesses.id, { onDelete: 'cascade' }),
  userId: text('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
  permissions: jsonb('permissions').$type<Permission[]>().notNull(),
  createdAt: stamp('created_at').notNull().defaultNow()
}, (t) => [
  uniqueIndex('business_members_business_user_idx').on(t.businessId, t.userId),
  index('business_members_user_idx').on(t.userId)
])

/**
 * An invitation to join a business as staff: single use, valid 7 days. Its token is derived from the id
 * with the server's key (HMAC), so the owner's staff screen can show the link again; only its SHA-256 hash is stored.
 */
export const staffInvitations = pgTable('staff_invitations', {
  id: text('id').primaryKey(),
  businessId: text('business_id').notNull().references(() => businesses.id, { onDelete: 'cascade' }),
  email: text('email').notNull(),
  permissions: jsonb('permissions').$type<Permission[]>().notNull(),
  tokenHash: text('token_hash').notNull().unique(),
  invitedBy: text('invited_by').notNull(),
  createdAt: stamp('created_at').notNull().defaultNow(),
  expiresAt: stamp('expires_at').notNull(),
  acceptedAt: stamp('accepted_at'),
  acceptedBy: text('accepted_by'),
  withdrawnAt: stamp('withdrawn_at')
}, (t) => [index('staff_invitations_business_idx').on(t.businessId, t.createdAt)])
