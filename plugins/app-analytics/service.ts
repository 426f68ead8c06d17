import type { FastifyInstance } from 'fastify'
import type { Db, Executor } from '../../server/db/client.ts'
import { bindExecutor, bindTo } from '../../server/db/bind.ts'
import type { Clock } from '../../server/clock.ts'
import { provided, requireProvided, type Provided } from '../../server/providers.ts'
import type { AppAnalyticsContext, InstallationFacts } from './context.ts'
import { COUNTER_FLUSH_MS, createCounterBuffer } from './counters.ts'
import { recordApiRequest, recordAttempt, recordHookCalls, recordInstall, recordUninstall, recordVersionUse } from './recording.ts'
import { analytics, prune, versionUses } from './reports.ts'
import type { Apps } from '../apps/index.ts'
import type { Guards } from '../auth/guards.ts'

export {
  COUNTER_RETENTION_DAYS, TREND_DAYS,
  type AppAnalyticsContext, type AttemptReport, type Environment, type HookCallReport, type InstallationFacts, type VersionUseKind
} from './context.ts'
export { COUNTER_FLUSH_MS, createCounterBuffer, type CounterBuffer } from './counters.ts'
export { statusClass, type StatusClass } from './recording.ts'
export { trendDates } from './reports.ts'

export const PRUNE_JOB = 'app-analytics.prune'
const PRUNE_CRON = '23 3 * * *'

/**
 * Analytics of one app for its developer: daily counters (owned here) fed by the installations, the
 * delivery engine, the hook runner and the App API, and the read model over them. Test installs
 * count apart (`sandbox`), so the published figures leave them out as the spec says. The counter
 * buffer (counters.ts) is the state: this process's counts between flushes; the recording
 * (recording.ts) and reading (reports.ts) functions are bound to it. Installs and uninstalls are
 * counted in the installation's own transaction: `in(tx)`.
 */
export function createAppAnalyticsService (db: Db, clock: Clock, onError: (error: unknown) => void, installations: Provided<InstallationFacts>) {
  const counters = createCounterBuffer(db, clock, onError, () => installations.value)
  const context: AppAnalyticsContext = { executor: db, clock, counters, installations }
  return {
    ...bindTo(context, { analytics, recordAttempt, recordHookCalls, recordApiRequest, recordVersionUse, versionUses }),
    in: (executor: Executor) => bindExecutor(executor, { recordInstall, recordUninstall }),
    flush: counters.flush,
    ...bindExecutor(db, { prune })
  }
}

export type AppAnalyticsService = ReturnType<typeof createAppAnalyticsService>

/**
 * Counts every answer of the app-token scope (App API and /webhooks) by status class, 429s included,
 * in memory. A request without a valid token has no app to count against.
 */
export function registerApiCounting (scope: FastifyInstance, appAnalytics: Pick<AppAnalyticsService, 'recordApiRequest'>): void {
  scope.addHook('onResponse', async (request, reply) => {
    const installation = request.installation
    if (installation === null || installation === undefined) return
    appAnalytics.recordApiRequest(installation.appId, installation.id, reply.statusCode)
  })
}

/**
 * App analytics' port (server/capability.ts): the recording the others report into, the reports, and
 * the interface it asks installations through (provided at installations' boot).
 */
export interface AppAnalytics extends AppAnalyticsService {
  providers: { installations: Provided<InstallationFacts> }
}

/** What app analytics' routes need of the others. */
export interface AppAnalyticsNeeds {
  apps: Pick<Apps, 'ownedApp'>
  guards: Pick<Guards, 'requireRole' | 'onSessionRevoked'>
}

/** The counters (flushed every COUNTER_FLUSH_MS and at close) and the daily prune job. */
export async function startAppAnalytics (fastify: FastifyInstance): Promise<AppAnalytics> {
  const providers = { installations: provided<InstallationFacts>('app-analytics installation facts (installations)') }
  requireProvided(fastify, 'app-analytics', providers)
  const service = createAppAnalyticsService(fastify.db, fastify.clock, (error) => fastify.log.warn({ err: error }, 'analytics counters write failed'), providers.installations)
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
  return { ...service, providers }
}
