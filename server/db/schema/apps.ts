import { pgTable, text, timestamp, boolean, json, jsonb, index, uniqueIndex, customType, integer } from 'drizzle-orm/pg-core'
import { sql } from 'drizzle-orm'

const createdAt = () => timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow()
const updatedAt = () => timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow()

import { APP_CATEGORIES, APP_STATUSES, DEFAULT_SIGNATURE_SCHEME, SIGNATURE_SCHEMES, type Pricing } from '../../../sdk/src/contract/index.ts'
export { APP_CATEGORIES }
export { APP_STATUSES }
export type AppStatus = typeof APP_STATUSES[number]

export const apps = pgTable('apps', {
  id: text('id').primaryKey(),
  developerId: text('developer_id').notNull(),
  clientId: text('client_id').notNull().unique(),
  /** sha256 of the client secret; the secret itself is shown once. */
  clientSecretHash: text('client_secret_hash').notNull(),
  name: text('name').notNull(),
  slug: text('slug').notNull().unique(),
  description: text('description').notNull(),
  category: text('category', { enum: APP_CATEGORIES }).notNull(),
  scopes: jsonb('scopes').$type<string[]>().notNull(),
  approvedScopes: jsonb('approved_scopes').$type<string[]>().notNull().default([]),
  /** Pricing plans as edited (DESIGN §23), and as last approved: what production installs may charge (null: never approved). */
  pricing: jsonb('pricing').$type<Pricing>().notNull().default({ plans: [] }),
  approvedPricing: jsonb('approved_pricing').$type<Pricing>(),
  redirectUrl: text('redirect_url').notNull(),
  /** Install entry and home (DESIGN §15): the listing's Install button and an installed app's Open. */
  appUrl: text('app_url'),
  webhookUrl: text('webhook_url'),
  webhookEvents: jsonb('webhook_events').$type<string[]>().notNull().default([]),
  /** How the app's own webhook deliveries and its hook calls are signed (DESIGN §21). */
  webhookSignatureScheme: text('webhook_signature_scheme', { enum: SIGNATURE_SCHEMES }).notNull().default(DEFAULT_SIGNATURE_SCHEME),
  /** The API version its new installations pin to (DESIGN §22); null: 2026-11, the spec's shapes. */
  apiVersion: text('api_version'),
  iconUrl: text('icon_url'),
  screenshots: jsonb('screenshots').$type<string[]>().notNull().default([]),
  version: text('version').notNull().default('1.0.0'),
  status: text('status', { enum: APP_STATUSES }).notNull().default('DRAFT'),
  isPublished: boolean('is_published').notNull().default(false),
  reviewNotes: text('review_notes'),
  /** The last review asked for changes and the developer has not submitted since: the portal marks it. */
  changesRequested: boolean('changes_requested').notNull().default(false),
  /** json, not jsonb: the developer's document keeps its key order (settings fields render in that order) */
  manifest: json('manifest').$type<Record<string, unknown>>().notNull().default({}),
  submittedAt: timestamp('submitted_at', { withTimezone: true, mode: 'date' }),
  publishedAt: timestamp('published_at', { withTimezone: true, mode: 'date' }),
  createdAt: createdAt(),
  updatedAt: updatedAt()
}, (t) => [
  index('apps_developer_created_idx').on(t.developerId, t.createdAt),
  index('apps_status_submitted_idx').on(t.status, t.submittedAt),
  index('apps_published_category_idx').on(t.isPublished, t.category, t.publishedAt)
])

/** Version history: every approval and every live edit of an approved app. */
export const appVersions = pgTable('app_versions', {
  id: text('id').primaryKey(),
  appId: text('app_id').notNull().references(() => apps.id, { onDelete: 'cascade' }),
  version: text('version').notNull(),
  /** APPROVED, REJECTED, UPDATED (live edit of an approved app) or SUBMITTED */
  kind: text('kind').notNull(),
  changes: jsonb('changes').$type<string[]>().notNull().default([]),
  scopes: jsonb('scopes').$type<string[]>().notNull(),
  approvedScopes: jsonb('approved_scopes').$type<string[]>().notNull(),
  notes: text('notes'),
  actorId: text('actor_id').notNull(),
  /** The listing fields and manifest as submitted or approved: what the reviewer's diff compares. */
  snapshot: jsonb('snapshot').$type<Record<string, unknown>>(),
  createdAt: createdAt()
}, (t) => [index('app_versions_app_created_idx').on(t.appId, t.createdAt)])

/** The conversation on a review: the developer answers the reviewer's notes, the reviewer answers back. */
export const appReviewReplies = pgTable('app_review_replies', {
  id: text('id').primaryKey(),
  appId: text('app_id').notNull().references(() => apps.id, { onDelete: 'cascade' }),
  authorId: text('author_id').notNull(),
  /** DEVELOPER or REVIEWER: who wrote it, as the thread shows it */
  authorRole: text('author_role', { enum: ['DEVELOPER', 'REVIEWER'] }).notNull(),
  body: text('body').notNull(),
  createdAt: createdAt()
}, (t) => [index('app_review_replies_app_created_idx').on(t.appId, t.createdAt)])

export const EXTENSION_KINDS = ['block', 'embed', 'hook', 'admin_page'] as const
export type ExtensionKind = typeof EXTENSION_KINDS[number]

/** Blocks, embeds, hooks and admin pages synced from the manifest; deactivated, never deleted. */
export const appExtensions = pgTable('app_extensions', {
  id: text('id').primaryKey(),
  appId: text('app_id').notNull().references(() => apps.id, { onDelete: 'cascade' }),
  kind: text('kind', { enum: EXTENSION_KINDS }).notNull(),
  /** blockType, embedType, hookPoint or pageId */
  key: text('key').notNull(),
  definition: jsonb('definition').$type<Record<string, unknown>>().notNull(),
  isActive: boolean('is_active').notNull().default(true),
  createdAt: createdAt(),
  updatedAt: updatedAt()
}, (t) => [
  uniqueIndex('app_extensions_key_idx').on(t.appId, t.kind, t.key),
  index('app_extensions_kind_key_idx').on(t.kind, t.key).where(sql`is_active`)
])

const bytea = customType<{ data: Buffer, driverData: Buffer | Uint8Array }>({
  dataType: () => 'bytea',
  fromDriver: (value) => Buffer.isBuffer(value) ? value : Buffer.from(value)
})

/** Uploaded icons and screenshots, in the database so every process can serve them. */
export const media = pgTable('media', {
  id: text('id').primaryKey(),
  appId: text('app_id').notNull().references(() => apps.id, { onDelete: 'cascade' }),
  contentType: text('content_type').notNull(),
  size: integer('size').notNull(),
  bytes: bytea('bytes').notNull(),
  createdAt: createdAt()
}, (t) => [index('media_app_idx').on(t.appId)])
