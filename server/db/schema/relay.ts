import { index, integer, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core'

/**
 * Connected `app-platform listen` sessions (DESIGN §19), one per app: the app's calls on this
 * sandbox business go to the session's stream while its heartbeat is fresh, from any process.
 */
export const relaySessions = pgTable('relay_sessions', {
  appId: text('app_id').primaryKey(),
  sessionId: text('session_id').notNull(),
  /** The developer's sandbox: only its (test) installation's calls are relayed. */
  businessId: text('business_id').notNull(),
  connectedAt: timestamp('connected_at', { withTimezone: true, mode: 'date' }).notNull(),
  heartbeatAt: timestamp('heartbeat_at', { withTimezone: true, mode: 'date' }).notNull()
})

export interface RelayAnswerRecord { status: number, headers: Record<string, string>, body: string }

/** Calls handed to a listen session and the answers posted back: the hand-over between processes. */
export const relayCalls = pgTable('relay_calls', {
  id: text('id').primaryKey(),
  appId: text('app_id').notNull(),
  businessId: text('business_id').notNull(),
  kind: text('kind', { enum: ['webhook', 'hook'] }).notNull(),
  /** The event or the hook point. */
  name: text('name').notNull(),
  /** Appended to the local URL: the hook's path, empty for webhooks. */
  path: text('path').notNull(),
  headers: jsonb('headers').$type<Record<string, string>>().notNull(),
  body: text('body').notNull(),
  timeoutMs: integer('timeout_ms').notNull(),
  deadlineAt: timestamp('deadline_at', { withTimezone: true, mode: 'date' }).notNull(),
  answer: jsonb('answer').$type<RelayAnswerRecord>(),
  answeredAt: timestamp('answered_at', { withTimezone: true, mode: 'date' }),
  createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull()
}, (t) => [index('relay_calls_app_created_idx').on(t.appId, t.createdAt)])
