import { pgTable, text, timestamp, boolean, jsonb, index, integer } from 'drizzle-orm/pg-core'
import { apps } from './apps.ts'

/** Authorization codes: stored as hashes, valid 10 minutes, usable once. */
export const oauthCodes = pgTable('oauth_codes', {
  codeHash: text('code_hash').primaryKey(),
  appId: text('app_id').notNull().references(() => apps.id, { onDelete: 'cascade' }),
  businessId: text('business_id').notNull(),
  userId: text('user_id').notNull(),
  redirectUri: text('redirect_uri').notNull(),
  scopes: jsonb('scopes').$type<string[]>().notNull(),
  isTestInstall: boolean('is_test_install').notNull(),
  codeChallenge: text('code_challenge'),
  expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
  usedAt: timestamp('used_at', { withTimezone: true, mode: 'date' }),
  /** The installation whose token this code issued, revoked if the code is replayed. */
  installationId: text('installation_id'),
  createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow()
}, (t) => [index('oauth_codes_expires_idx').on(t.expiresAt)])

export const DEVICE_STATUSES = ['pending', 'approved', 'denied', 'issued'] as const
export type DeviceStatus = typeof DEVICE_STATUSES[number]

/** RFC 8628 device authorizations: both codes stored as hashes, valid 15 minutes, the token issued once. */
export const deviceAuthorizations = pgTable('device_authorizations', {
  id: text('id').primaryKey(),
  deviceCodeHash: text('device_code_hash').notNull().unique(),
  userCodeHash: text('user_code_hash').notNull().unique(),
  clientName: text('client_name').notNull(),
  /** The address the device asked from, shown to the developer who decides (RFC 8628 §5.4); null for rows from before it was kept. */
  requestedFrom: text('requested_from'),
  status: text('status', { enum: DEVICE_STATUSES }).notNull(),
  /** The developer who approved or denied it. */
  userId: text('user_id'),
  intervalSeconds: integer('interval_seconds').notNull(),
  lastPolledAt: timestamp('last_polled_at', { withTimezone: true, mode: 'date' }),
  expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
  createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow()
}, (t) => [index('device_authorizations_expires_idx').on(t.expiresAt)])
