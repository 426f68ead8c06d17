import { pgTable, text, timestamp, jsonb, index, uniqueIndex } from 'drizzle-orm/pg-core'
import { businesses } from './commerce.ts'
import { users } from './auth.ts'

const at = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' })

/** What a staff member may use (DESIGN §24); the owner may use everything. */
export const PERMISSIONS = ['orders', 'products', 'reviews', 'pages', 'settings', 'apps', 'billing'] as const
export type Permission = typeof PERMISSIONS[number]

/**
 * A business's staff (DESIGN §24): a user who joined by invitation, with their permissions. The
 * owner is not a row: the business's owner_id is the owner.
 */
export const businessMembers = pgTable('business_members', {
  id: text('id').primaryKey(),
  businessId: text('business_id').notNull().references(() => businesses.id, { onDelete: 'cascade' }),
  userId: text('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
  permissions: jsonb('permissions').$type<Permission[]>().notNull(),
  createdAt: at('created_at').notNull().defaultNow()
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
  createdAt: at('created_at').notNull().defaultNow(),
  expiresAt: at('expires_at').notNull(),
  acceptedAt: at('accepted_at'),
  acceptedBy: text('accepted_by'),
  withdrawnAt: at('withdrawn_at')
}, (t) => [index('staff_invitations_business_idx').on(t.businessId, t.createdAt)])
