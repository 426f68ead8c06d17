import { pgTable, text, date, boolean, bigint, primaryKey, index } from 'drizzle-orm/pg-core'

/**
 * Daily counters per app (DESIGN §16 "Analytics storage"), kept 400 days while the raw logs follow
 * DELIVERY_LOG_RETENTION_DAYS. `sandbox` separates test installs (left out of the published figures).
 * Metrics: installs, uninstalls, deliveries.succeeded|failed, attempts, attempts.duration_ms (a sum),
 * api.2xx|3xx|4xx|429|5xx (429 is not in 4xx), hooks.<hook point>.succeeded|failed.
 */
export const appDailyCounters = pgTable('app_daily_counters', {
  appId: text('app_id').notNull(),
  day: date('day', { mode: 'string' }).notNull(),
  sandbox: boolean('sandbox').notNull(),
  metric: text('metric').notNull(),
  value: bigint('value', { mode: 'number' }).notNull()
}, (t) => [
  primaryKey({ columns: [t.appId, t.day, t.sandbox, t.metric] }),
  index('app_daily_counters_day_idx').on(t.day)
])
