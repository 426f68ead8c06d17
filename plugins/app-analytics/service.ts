import fp from 'fastify-plugin'
import type { FastifyInstance } from 'fastify'
import { sql } from 'drizzle-orm'
import { rows } from '../../server/db/rows.ts'
import type { Db, Executor } from '../../server/db/client.ts'
import { HOOK_POINTS } from '../../sdk/src/contract/index.ts'
import type { AppAnalytics } from '../../sdk/src/contract/console.ts'
import type { Clock } from '../../server/clock.ts'
import { provided, requireProvided, type Provided } from '../../server/providers.ts'

/** Days the daily counters are kept (DESIGN §16 "Analytics storage"). */
export const COUNTER_RETENTION_DAYS = 400
/** Default period of the analytics, today included (UTC days). */
export const TREND_DAYS = 30
/** What used an API version: App API requests, webhook delivery attempts, hook calls. */
export type VersionUseKind = 'requests' | 'webhooks' | 'hooks'
/** How often the in-memory counts are written (one statement for all of them). */
export const COUNTER_FLUSH_MS = 2000
export const PRUNE_JOB = 'app-analytics.prune'
const PRUNE_CRON = '23 3 * * *'
const DAY_MS = 86_400_000

export type Environment = 'live' | 'sandbox'
export type StatusClass = '2xx' | '3xx' | '4xx' | '429' | '5xx'

/** The last `days` UTC dates, oldest first. */
export function trendDates (now: Date, days = TREND_DAYS): string[] {
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate())
  return Array.from({ length: days }, (_, i) => new Date(today - (days - 1 - i) * DAY_MS).toISOString().slice(0, 10))
}

/** The class an App API answer is counted under: 429 apart from the other 4xx. */
export function statusClass (statusCode: number): StatusClass {
  if (statusCode === 429) return '429'
  if (statusCode >= 500) return '5xx'
  if (statusCode >= 400) return '4xx'
  if (statusCode >= 300) return '3xx'
  return '2xx'
}

/** What the delivery engine reports after each recorded attempt (plugins/webhooks/delivery.ts AttemptOutcome). */
export interface AttemptReport { appId: string, installationId: string, event: string, status: 'PENDING' | 'SUCCEEDED' | 'FAILED', durationMs: number, counts: boolean }
/** What the hook runner reports after writing its call log. */
export interface HookCallReport { appId: string, installationId: string, hookPoint: string, success: boolean }

const utcDay = (at: Date) => at.toISOString().slice(0, 10)

/** One counter increment; the installation decides live or sandbox when it is written. */
interface Increment { appId: string, installationId: string, day: string, metric: string, n: number }

/**
 * Counts in memory, merged by (app, installation, day, metric), and written in one upsert every
 * COUNTER_FLUSH_MS and on close: no write per request or per attempt. A crash loses at most the
 * counts of the last interval (docs/decisions.md).
 */
export function createCounterBuffer (db: Db, clock: Clock, onError: (error: unknown) => void, testInstalls: () => InstallationFacts) {
  let pending = new Map<string, Increment>()
  let running: Promise<void> = Promise.resolve()

  function add (appId: string, installationId: string, metric: string, n = 1, day = utcDay(clock.now())): void {
    if (n === 0) return
    const key = `${appId}\u0000${installationId}\u0000${day}\u0000${metric}`
    const current = pending.get(key)
    if (current === undefined) pending.set(key, { appId, installationId, day, metric, n })
    else current.n += n
  }

  async function write (batch: Increment[]): Promise<void> {
    const facts = await testInstalls().factsOf([...new Set(batch.map((i) => i.installationId))])
    const values = batch.map((i) => ({ app_id: i.appId, sandbox: facts.get(i.installationId)?.isTestInstall ?? false, day: i.day, metric: i.metric, n: i.n }))
    await db.execute(sql`insert into app_daily_counters (app_id, day, sandbox, metric, value)
      select v.app_id, v.day::date, v.sandbox, v.metric, sum(v.n)
      from jsonb_to_recordset(${JSON.stringify(values)}::jsonb) as v(app_id text, sandbox boolean, day text, metric text, n bigint)
      group by 1, 2, 3, 4
      on conflict (app_id, day, sandbox, metric) do update set value = app_daily_counters.value + excluded.value`)
  }

  /** Writes what was counted so far; a failed write keeps the counts for the next flush. */
  function flush (): Promise<void> {
    running = running.then(async () => {
      if (pending.size === 0) return
      const batch = [...pending.values()]
      pending = new Map()
      try {
        await write(batch)
      } catch (error) {
        for (const i of batch) add(i.appId, i.installationId, i.metric, i.n, i.day)
        onError(error)
      }
    })
    return running
  }

  return { add, flush, get size () { return pending.size } }
}

/**
 * What the analytics ask of installations (which depends on app-analytics, so provides this at its
 * boot): whether an installation is a test install (its counts go to the sandbox), and install totals.
 */
export interface InstallationFacts {
  factsOf: (ids: string[]) => Promise<Map<string, { isTestInstall: boolean }>>
  installCountsOf: (appId: string, sandbox: boolean) => Promise<{ total: number, active: number }>
}

declare module 'fastify' {
  interface FastifyInstance {
    appAnalytics: ReturnType<typeof createAppAnalyticsService>
    /** The interfaces app-analytics asks through, provided by installations at its boot. */
    appAnalyticsProviders: { installations: Provided<InstallationFacts> }
  }
}

/**
 * Analytics of one app for its developer: daily counters (owned here) fed by the installations, the
 * delivery engine, the hook runner and the App API, and the read model over them. Test installs
 * count apart (`sandbox`), so the published figures leave them out as the spec says.
 */
export function createAppAnalyticsService (db: Db, clock: Clock, onError: (error: unknown) => void, installations: Provided<InstallationFacts>) {
  const counters = createCounterBuffer(db, clock, onError, () => installations.value)

  /** Installs and uninstalls are counted in the installation's own transaction: exact, and few. */
  function inTransaction (executor: Executor) {
    async function bump (appId: string, isTestInstall: boolean, metric: 'installs' | 'uninstalls'): Promise<void> {
      await executor.execute(sql`insert into app_daily_counters (app_id, day, sandbox, metric, value)
        values (${appId}, (now() at time zone 'UTC')::date, ${isTestInstall}, ${metric}, 1)
        on conflict (app_id, day, sandbox, metric) do update set value = app_daily_counters.value + 1`)
    }
    return {
      recordInstall: async (appId: string, isTestInstall: boolean) => { await bump(appId, isTestInstall, 'installs') },
      recordUninstall: async (appId: string, isTestInstall: boolean) => { await bump(appId, isTestInstall, 'uninstalls') }
    }
  }

  /** Every attempt counts its duration; a finished delivery counts its outcome. The test operation counts nothing. */
  function recordAttempt (report: AttemptReport): void {
    if (!report.counts || report.event === 'webhook.test') return
    counters.add(report.appId, report.installationId, 'attempts')
    counters.add(report.appId, report.installationId, 'attempts.duration_ms', report.durationMs)
    if (report.status === 'SUCCEEDED') counters.add(report.appId, report.installationId, 'deliveries.succeeded')
    if (report.status === 'FAILED') counters.add(report.appId, report.installationId, 'deliveries.failed')
  }

  function recordHookCalls (calls: HookCallReport[]): void {
    for (const call of calls) counters.add(call.appId, call.installationId, `hooks.${call.hookPoint}.${call.success ? 'succeeded' : 'failed'}`)
  }

  function recordApiRequest (appId: string, installationId: string, statusCode: number): void {
    counters.add(appId, installationId, `api.${statusClass(statusCode)}`)
  }

  /** The API version a request, a delivery attempt or a hook call used (issue #31): `versions.<kind>.<version>`. */
  function recordVersionUse (appId: string, installationId: string, kind: VersionUseKind, version: string): void {
    counters.add(appId, installationId, `versions.${kind}.${version}`)
  }

  /** Per kind and version, what the app's installations (test installs included) used in the last `days` days, today included. */
  async function versionUses (appId: string, days = TREND_DAYS, now = clock.now()): Promise<Array<{ kind: VersionUseKind, version: string, count: number }>> {
    await counters.flush()
    const dates = trendDates(now, days)
    const counted = await rows(db, sql<any>`select metric, sum(value)::float8 as count from app_daily_counters
      where app_id = ${appId} and metric like 'versions.%' and day >= ${dates[0]}::date and day <= ${dates[dates.length - 1]}::date
      group by metric order by metric`)
    return counted.map((row) => {
      const [, kind, version] = String(row.metric).split('.')
      return { kind: kind as VersionUseKind, version, count: Number(row.count) }
    })
  }

  async function analytics (appId: string, options: { days?: number, environment?: Environment } = {}, now = clock.now()): Promise<AppAnalytics> {
    const days = options.days ?? TREND_DAYS
    const environment = options.environment ?? 'live'
    const sandbox = environment === 'sandbox'
    // this process's counts first; other processes' arrive within COUNTER_FLUSH_MS
    await counters.flush()
    const dates = trendDates(now, days)
    const totals = await installations.value.installCountsOf(appId, sandbox)
    const counted = await rows(db, sql<any>`select to_char(day, 'YYYY-MM-DD') as day, metric, value::float8 as value from app_daily_counters
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
  async function prune (): Promise<number> {
    return (await rows(db, sql<any>`delete from app_daily_counters where day < (now() at time zone 'UTC')::date - ${COUNTER_RETENTION_DAYS}::int returning 1`)).length
  }

  return { analytics, recordAttempt, recordHookCalls, recordApiRequest, recordVersionUse, versionUses, in: inTransaction, flush: counters.flush, prune }
}

export type AppAnalyticsService = ReturnType<typeof createAppAnalyticsService>

/**
 * Counts every answer of the app-token scope (App API and /webhooks) by status class, 429s included,
 * in memory. A request without a valid token has no app to count against.
 */
export function registerApiCounting (scope: FastifyInstance): void {
  scope.addHook('onResponse', async (request, reply) => {
    const installation = request.installation
    if (installation === null || installation === undefined) return
    scope.appAnalytics.recordApiRequest(installation.appId, installation.id, reply.statusCode)
  })
}

export default fp(async function appAnalyticsService (fastify) {
  const providers = { installations: provided<InstallationFacts>('app-analytics installation facts (installations)') }
  fastify.decorate('appAnalyticsProviders', providers)
  requireProvided(fastify, 'app-analytics', providers)
  const service = createAppAnalyticsService(fastify.db, fastify.clock, (error) => fastify.log.warn({ err: error }, 'analytics counters write failed'), providers.installations)
  fastify.decorate('appAnalytics', service)
  const timer = setInterval(() => { void service.flush() }, COUNTER_FLUSH_MS)
  timer.unref()
  // after the delivery engine and the hook runner finished (they close earlier), before the database closes
  fastify.addHook('onClose', async () => {
    clearInterval(timer)
    await service.flush()
  })
  if (fastify.config.processRole !== 'web') {
    await fastify.jobs.work(PRUNE_JOB, async () => {
      fastify.log.info({ counters: await service.prune() }, 'analytics counters pruned')
    })
    await fastify.jobs.boss.schedule(PRUNE_JOB, PRUNE_CRON)
  }
}, { name: 'app-analytics', dependencies: ['db', 'clock', 'config', 'jobs'] })
