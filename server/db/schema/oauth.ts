import { pgTable, text, timestamp, boolean, jsonb, index } from 'drizzle-orm/pg-core'
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
