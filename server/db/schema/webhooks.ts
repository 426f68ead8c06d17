import { pgTable, text, timestamp, boolean, jsonb, index, integer, uniqueIndex } from 'drizzle-orm/pg-core'
import { sql } from 'drizzle-orm'
import { DELIVERY_STATUSES } from '../../../sdk/src/contract/resources.ts'
import { DEFAULT_SIGNATURE_SCHEME, SIGNATURE_SCHEMES } from '../../../sdk/src/contract/events.ts'

/** Webhook registrations of an installation: the app's own (from webhookUrl) and any made through POST /webhooks. */
export const webhooks = pgTable('webhooks', {
  id: text('id').primaryKey(),
  installationId: text('installation_id').notNull(),
  appId: text('app_id').notNull(),
  businessId: text('business_id').notNull(),
  url: text('url').notNull(),
  /** AES-256-GCM; the app's own registration shares the installation's webhook secret */
  secretEncrypted: text('secret_encrypted').notNull(),
  events: jsonb('events').$type<string[]>().notNull(),
  description: text('description').notNull().default(''),
  isActive: boolean('is_active').notNull().default(true),
  /** Created at install from the app's webhookUrl and webhookEvents. */
  isAppWebhook: boolean('is_app_webhook').notNull().default(false),
  /** How its deliveries are signed; the app's own registration follows apps.webhook_signature_scheme instead. */
  /** The API version its deliveries are shaped for; null: the installation's pinned version. */
  apiVersion: text('api_version'),
  signatureScheme: text('signature_scheme', { enum: SIGNATURE_SCHEMES }).notNull().default(DEFAULT_SIGNATURE_SCHEME),
  consecutiveFailures: integer('consecutive_failures').notNull().default(0),
  disabledReason: text('disabled_reason'),
  createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow()
}, (t) => [
  index('webhooks_installation_idx').on(t.installationId, t.createdAt),
  index('webhooks_business_active_idx').on(t.businessId).where(sql`is_active`)
])

// the contract's list (sdk/src/contract/resources.ts): the column and the API answer agree
export { DELIVERY_STATUSES }

/** One event sent to one registration. Its id is X-Service-Event-Id: the same on every retry and redelivery. */
export const webhookDeliveries = pgTable('webhook_deliveries', {
  id: text('id').primaryKey(),
  webhookId: text('webhook_id').notNull(),
  installationId: text('installation_id').notNull(),
  appId: text('app_id').notNull(),
  businessId: text('business_id').notNull(),
  /** The outbox event; null for webhook.test. */
  eventId: text('event_id'),
  event: text('event').notNull(),
  data: jsonb('data').$type<Record<string, unknown>>().notNull(),
  status: text('status', { enum: DELIVERY_STATUSES }).notNull().default('PENDING'),
  /** Every attempt ever made (attempt log numbering). */
  attempts: integer('attempts').notNull().default(0),
  /** Attempts since the delivery was (re)started: the retry schedule counts these. */
  cycleAttempts: integer('cycle_attempts').notNull().default(0),
  lastStatusCode: integer('last_status_code'),
  lastError: text('last_error'),
  lastDurationMs: integer('last_duration_ms'),
  nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true, mode: 'date' }),
  /** Lease of the process attempting (or about to attempt) it: no other process may attempt it before then. */
  lockedUntil: timestamp('locked_until', { withTimezone: true, mode: 'date' }),
  /** When the event happened: the envelope's timestamp, the same on every attempt. */
  occurredAt: timestamp('occurred_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  completedAt: timestamp('completed_at', { withTimezone: true, mode: 'date' }),
  /** Its event's `traceparent` (outbox_events.trace_parent): retries join the trace of the request too. */
  traceParent: text('trace_parent')
}, (t) => [
  uniqueIndex('webhook_deliveries_event_webhook_idx').on(t.eventId, t.webhookId),
  index('webhook_deliveries_webhook_created_idx').on(t.webhookId, t.createdAt),
  // the console's log of an app, newest first (read backwards), whole or by status or event: an index each
  index('webhook_deliveries_app_created_idx').on(t.appId, t.createdAt, t.id),
  index('webhook_deliveries_app_status_idx').on(t.appId, t.status, t.createdAt, t.id),
  index('webhook_deliveries_app_event_idx').on(t.appId, t.event, t.createdAt, t.id),
  index('webhook_deliveries_installation_created_idx').on(t.installationId, t.createdAt),
  index('webhook_deliveries_pending_idx').on(t.nextAttemptAt).where(sql`status = 'PENDING'`),
  index('webhook_deliveries_created_idx').on(t.createdAt)
])

/** Every HTTP attempt of a delivery, successful ones included (kept DELIVERY_LOG_RETENTION_DAYS). */
export const webhookAttempts = pgTable('webhook_attempts', {
  id: text('id').primaryKey(),
  deliveryId: text('delivery_id').notNull().references(() => webhookDeliveries.id, { onDelete: 'cascade' }),
  attempt: integer('attempt').notNull(),
  statusCode: integer('status_code'),
  durationMs: integer('duration_ms').notNull(),
  error: text('error'),
  responseSnippet: text('response_snippet'),
  /** The headers sent (signature included; the secret is never a header). The body is rebuilt from the delivery (envelopeBody). */
  requestHeaders: jsonb('request_headers').$type<Record<string, string>>(),
  /** When the failed attempt's retry was scheduled; null after a success or the last attempt. */
  nextRetryAt: timestamp('next_retry_at', { withTimezone: true, mode: 'date' }),
  /** Answered through a developer's `app-platform listen` session instead of the network (DESIGN §19). */
  relayed: boolean('relayed').notNull().default(false),
  createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow()
}, (t) => [
  index('webhook_attempts_delivery_idx').on(t.deliveryId, t.attempt),
  index('webhook_attempts_created_idx').on(t.createdAt)
])
