import { sql } from 'drizzle-orm'
import { pgTable, text, timestamp, boolean, integer, index } from 'drizzle-orm/pg-core'

/** Every synchronous hook call, for the developer's hook-call log. */
export const hookCalls = pgTable('hook_calls', {
  id: text('id').primaryKey(),
  appId: text('app_id').notNull(),
  installationId: text('installation_id').notNull(),
  businessId: text('business_id').notNull(),
  hookPoint: text('hook_point').notNull(),
  url: text('url').notNull(),
  success: boolean('success').notNull(),
  statusCode: integer('status_code'),
  durationMs: integer('duration_ms').notNull(),
  error: text('error'),
  /** The envelope exactly as sent ({hookPoint, businessId, timestamp, data}). */
  requestBody: text('request_body'),
  /** The answer's first 4 KB as received (null when none came). */
  answer: text('answer'),
  /** The manifest hook's failurePolicy at the time of the call. */
  failurePolicy: text('failure_policy', { enum: ['open', 'closed'] }),
  /** The order a placing checkout's calls belong to (its id is chosen before the hooks run); null for quotes. */
  orderId: text('order_id'),
  /** Answered through a developer's `app-platform listen` session instead of the network (DESIGN §19). */
  relayed: boolean('relayed').notNull().default(false),
  createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow()
}, (t) => [
  // the console's log of an app, newest first (read backwards), whole or by hook point or outcome: an index each
  index('hook_calls_app_created_idx').on(t.appId, t.createdAt, t.id),
  index('hook_calls_app_point_created_idx').on(t.appId, t.hookPoint, t.createdAt, t.id),
  index('hook_calls_app_success_idx').on(t.appId, t.success, t.createdAt, t.id),
  index('hook_calls_created_idx').on(t.createdAt),
  index('hook_calls_business_order_idx').on(t.businessId, t.orderId).where(sql`order_id is not null`)
])
