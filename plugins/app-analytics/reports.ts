import { sql } from 'drizzle-orm'
import { rows } from '../../server/db/rows.ts'
import type { Executor } from '../../server/db/client.ts'
import { HOOK_POINTS } from '../../sdk/src/contract/index.ts'
import type { AppAnalytics } from '../../sdk/src/contract/console.ts'
import { COUNTER_RETENTION_DAYS, TREND_DAYS, type AppAnalyticsContext, type Environment, type VersionUseKind } from './context.ts'

const DAY_MS = 86_400_000

/** The last `days` UTC dates, oldest first. */
export function trendDates (now: Date, days = TREND_DAYS): string[] {
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate())
  return Array.from({ length: days }, (_, i) => new Date(today - (days - 1 - i) * DAY_MS).toISOString().slice(0, 10))
}

export interface VersionUse { kind: VersionUseKind, version: string, count: number }

/** Per kind and version, what the app's installations (test installs included) used in the last `days` days, today included. */
export async function versionUses (
  { executor, clock, counters }: AppAnalyticsContext, appId: string, days = TREND_DAYS, now = clock.now()
): Promise<VersionUse[]> {
  await counters.flush()
  const dates = trendDates(now, days)
  const counted = await rows(executor, sql<{ metric: string, count: number }>`select metric, sum(value)::float8 as count from app_daily_counters
    where app_id = ${appId} and metric like 'versions.%' and day >= ${dates[0]}::date and day <= ${dates[dates.length - 1]}::date
    group by metric order by metric`)
  return counted.map((row) => {
    const [, kind, version] = String(row.metric).split('.')
    return { kind: kind as VersionUseKind, version, count: Number(row.count) }
  })
}

export async function analytics (
  { executor, clock, counters, installations }: AppAnalyticsContext,
  appId: string, options: { days?: number, environment?: Environment } = {}, now = clock.now()
): Promise<AppAnalytics> {
  const days = options.days ?? TREND_DAYS
  const environment = options.environment ?? 'live'
  const sandbox = environment === 'sandbox'
  // this process's counts first; other processes' arrive within COUNTER_FLUSH_MS
  await counters.flush()
  const dates = trendDates(now, days)
  const totals = await installations.value.installCountsOf(appId, sandbox)
  const counted = await rows(executor, sql<{ day: string, metric: string, value: number }>`select to_char(day, 'YYYY-MM-DD') as day, metric, value::float8 as value from app_daily_counters
    where app_id = ${appId} and sandbox = ${sandbox} and day >= ${dates[0]}::date and day <= ${dates[dates.length - 1]}::date`)
  const byMetric = new Map<string, Map<string, number>>()
  for (const row of counted) {
    const perDay = byMetric.get(row.metric) ?? new Map<string, number>()
    perDay.set(String(row.day), Number(row.value))
    byMetric.set(row.metric, perDay)
  }
  const value = (metric: string, date: string) => byMetric.get(metric)?.get(date) ?? 0
  const total = (metric: string) => dates.reduce((sum, date) => sum + value(metric, date), 0)
  const succeeded = total('deliveries.succeeded')
  const failed = total('deliveries.failed')
  const attempts = total('attempts')
  return {
    days,
    environment,
    totalInstalls: totals.total,
    activeInstalls: totals.active,
    // a percentage, 0–100, as the spec says, to two decimals
    webhookSuccessRate: succeeded + failed === 0 ? null : Math.round((succeeded / (succeeded + failed)) * 10_000) / 100,
    averageWebhookLatencyMs: attempts === 0 ? null : Math.round(total('attempts.duration_ms') / attempts),
    installTrend: dates.map((date) => ({ date, installs: value('installs', date), uninstalls: value('uninstalls', date) })),
    webhookDeliveries: dates.map((date) => ({ date, succeeded: value('deliveries.succeeded', date), failed: value('deliveries.failed', date) })),
    apiRequests: dates.map((date) => ({
      date, ok: value('api.2xx', date), redirect: value('api.3xx', date), clientError: value('api.4xx', date), rateLimited: value('api.429', date), serverError: value('api.5xx', date)
    })),
    hookCalls: HOOK_POINTS.map((hookPoint) => ({
      hookPoint,
      succeeded: total(`hooks.${hookPoint}.succeeded`),
      failed: total(`hooks.${hookPoint}.failed`),
      daily: dates.map((date) => ({ date, succeeded: value(`hooks.${hookPoint}.succeeded`, date), failed: value(`hooks.${hookPoint}.failed`, date) }))
    }))
  }
}

/** Counters older than COUNTER_RETENTION_DAYS. */
export async function prune (executor: Executor): Promise<number> {
  return (await rows(executor, sql<{ one: number }>`delete from app_daily_counters where day < (now() at time zone 'UTC')::date - ${COUNTER_RETENTION_DAYS}::int returning 1 as one`)).length
}
