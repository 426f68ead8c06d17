import fp from 'fastify-plugin'
import { sql } from 'drizzle-orm'
import { rows } from '../../server/db/rows.ts'
import type { Db } from '../../server/db/client.ts'

/** Days in the charts, today included (UTC days). */
export const TREND_DAYS = 30
const DAY_MS = 86_400_000
const dayOf = (value: unknown): string => value instanceof Date ? value.toISOString().slice(0, 10) : String(value).slice(0, 10)

/** The last TREND_DAYS UTC dates, oldest first. */
export function trendDates (now = new Date()): string[] {
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate())
  return Array.from({ length: TREND_DAYS }, (_, i) => new Date(today - (TREND_DAYS - 1 - i) * DAY_MS).toISOString().slice(0, 10))
}

declare module 'fastify' {
  interface FastifyInstance {
    appAnalytics: ReturnType<typeof createAppAnalyticsService>
  }
}

/**
 * Analytics of one app for its developer, a read model over the installations and webhook logs
 * (raw SQL reads only; it owns no table and writes nothing). Test installs are left out.
 */
export function createAppAnalyticsService (db: Db) {
  async function analytics (appId: string, now = new Date()) {
    const dates = trendDates(now)
    const from = new Date(`${dates[0]}T00:00:00.000Z`)
    const live = sql`i.app_id = ${appId} and not i.is_test_install`
    const [totals] = (await rows(db, sql<any>`select count(*)::int as total, count(*) filter (where i.uninstalled_at is null)::int as active
      from installations i where ${live}`))
    const installs = (await rows(db, sql<any>`select to_char(i.installed_at at time zone 'UTC', 'YYYY-MM-DD') as day, count(*)::int as n
      from installations i where ${live} and i.installed_at >= ${from} group by 1`))
    const uninstalls = (await rows(db, sql<any>`select to_char(i.uninstalled_at at time zone 'UTC', 'YYYY-MM-DD') as day, count(*)::int as n
      from installations i where ${live} and i.uninstalled_at >= ${from} group by 1`))
    const deliveries = (await rows(db, sql<any>`select to_char(d.completed_at at time zone 'UTC', 'YYYY-MM-DD') as day,
        count(*) filter (where d.status = 'SUCCEEDED')::int as succeeded, count(*) filter (where d.status = 'FAILED')::int as failed
      from webhook_deliveries d join installations i on i.id = d.installation_id
      where ${live} and d.completed_at >= ${from} and d.event <> 'webhook.test' group by 1`))
    const [latency] = (await rows(db, sql<any>`select avg(a.duration_ms)::float8 as avg
      from webhook_attempts a join webhook_deliveries d on d.id = a.delivery_id join installations i on i.id = d.installation_id
      where ${live} and a.created_at >= ${from} and d.event <> 'webhook.test'`))

    const perDay = (rows: any[], key = 'n') => new Map(rows.map((row) => [dayOf(row.day), Number(row[key])]))
    const installsByDay = perDay(installs)
    const uninstallsByDay = perDay(uninstalls)
    const succeededByDay = perDay(deliveries, 'succeeded')
    const failedByDay = perDay(deliveries, 'failed')
    const succeeded = [...succeededByDay.values()].reduce((a, b) => a + b, 0)
    const failed = [...failedByDay.values()].reduce((a, b) => a + b, 0)
    return {
      totalInstalls: Number(totals?.total ?? 0),
      activeInstalls: Number(totals?.active ?? 0),
      webhookSuccessRate: succeeded + failed === 0 ? null : Math.round((succeeded / (succeeded + failed)) * 10_000) / 10_000,
      averageWebhookLatencyMs: latency?.avg === null || latency?.avg === undefined ? null : Math.round(Number(latency.avg)),
      installTrend: dates.map((date) => ({ date, installs: installsByDay.get(date) ?? 0, uninstalls: uninstallsByDay.get(date) ?? 0 })),
      webhookDeliveries: dates.map((date) => ({ date, succeeded: succeededByDay.get(date) ?? 0, failed: failedByDay.get(date) ?? 0 }))
    }
  }

  return { analytics }
}

export default fp(async function appAnalyticsService (fastify) {
  fastify.decorate('appAnalytics', createAppAnalyticsService(fastify.db))
}, { name: 'app-analytics', dependencies: ['db'] })
