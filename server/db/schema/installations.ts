import { pgTable, text, timestamp, boolean, jsonb, index, uniqueIndex } from 'drizzle-orm/pg-core'
import { sql } from 'drizzle-orm'
import { apps } from './apps.ts'
import type { RemovedBlock } from './commerce.ts'

/**
 * The merchant's setup of an installation, recorded at its uninstall (docs/decisions.md), and what
 * became of the offer to restore it on the next installation of the app on the business.
 */
export interface PreviousSetup {
  settings: Record<string, unknown>
  embeds: Record<string, { enabled: boolean, settings: Record<string, unknown> }>
  blocks: RemovedBlock[]
  /** The names the app gave its blocks and embeds then (`block:<handle>`, `embed:<handle>`), for those it drops later. */
  names?: Record<string, string>
  resolution: { outcome: 'RESTORED' | 'DISMISSED', at: string, installationId: string } | null
}

const updatedAt = () => timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow()

export const installations = pgTable('installations', {
  id: text('id').primaryKey(),
  appId: text('app_id').notNull().references(() => apps.id, { onDelete: 'cascade' }),
  businessId: text('business_id').notNull(),
  /** sha256 of the access token */
  accessTokenHash: text('access_token_hash').notNull().unique(),
  /** AES-256-GCM ciphertext: the secret must be recoverable to sign deliveries */
  webhookSecretEncrypted: text('webhook_secret_encrypted').notNull(),
  isTestInstall: boolean('is_test_install').notNull().default(false),
  needsReConsent: boolean('needs_re_consent').notNull().default(false),
  grantedScopes: jsonb('granted_scopes').$type<string[]>().notNull(),
  /** Scopes the merchant has not yet approved after an approved expansion. */
  pendingScopes: jsonb('pending_scopes').$type<string[]>().notNull().default([]),
  settings: jsonb('settings').$type<Record<string, unknown>>().notNull().default({}),
  /**
   * The API version the installation is pinned to (sdk/src/contract/api-versions.ts): new installs take
   * the current one, the migration pinned existing ones to 2026-11; the developer's upgrade moves it.
   */
  apiVersion: text('api_version').notNull().default('2026-11'),
  embedSettings: jsonb('embed_settings').$type<Record<string, { enabled: boolean, settings: Record<string, unknown> }>>().notNull().default({}),
  installedBy: text('installed_by').notNull(),
  installedAt: timestamp('installed_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  uninstalledAt: timestamp('uninstalled_at', { withTimezone: true, mode: 'date' }),
  /** Set at uninstall when the merchant had set something up (settings, embeds, blocks); null otherwise. */
  previousSetup: jsonb('previous_setup').$type<PreviousSetup>(),
  updatedAt: updatedAt()
}, (t) => [
  index('installations_app_idx').on(t.appId, t.installedAt),
  index('installations_business_idx').on(t.businessId, t.installedAt),
  uniqueIndex('installations_active_idx').on(t.appId, t.businessId).where(sql`uninstalled_at is null`)
])
