import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client'
import type { SqlExecutor } from './db/client.ts'
import { JOB_SCHEMA } from './jobs.ts'

/** Seconds; from a cached read (1 ms) to a slow webhook receiver (the 10 s default timeout). */
const LATENCY_BUCKETS = [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10]
/** Event-loop delay is sampled this often (prom-client's histogram of the loop's delay). */
const EVENT_LOOP_RESOLUTION_MS = 10

/**
 * Memory, CPU and event-loop delay belong to the process, not to an app instance: one registry for
 * them per process (tests build many apps in one process; each would otherwise start its own monitor).
 */
let processRegistry: Registry | null = null
function processMetrics (): Registry {
  if (processRegistry === null) {
    processRegistry = new Registry()
    collectDefaultMetrics({ register: processRegistry, eventLoopMonitoringPrecision: EVENT_LOOP_RESOLUTION_MS })
  }
  return processRegistry
}

export interface PoolStats { size: number, inUse: number, idle: number, waiting: number }

export interface MetricsSources {
  role: 'web' | 'worker' | 'all'
  /** The pg-boss queue depth is read from its job table at scrape time. */
  executor: SqlExecutor
  /** PostgreSQL's connection pool; undefined for PGlite, which has one connection and no pool. */
  poolStats?: () => PoolStats
  /** PGlite's one connection: statements holding it and waiting for it; undefined for PostgreSQL. */
  queueStats?: () => { active: number, waiting: number }
  onError: (error: unknown) => void
}

export type StatusClass = '1xx' | '2xx' | '3xx' | '4xx' | '5xx'
export const statusClass = (statusCode: number) => `${Math.floor(statusCode / 100)}xx` as StatusClass

/** Outcome of one webhook attempt: delivered, failed for good, or failed with a retry scheduled. */
export type AttemptOutcomeLabel = 'succeeded' | 'failed' | 'retrying'

/**
 * prom-client prints a gauge that has no value yet (the event-loop lag before its first samples) as
 * `Nan`, which neither the Prometheus text format nor OpenMetrics reads (`NaN`): such a sample is left out.
 */
function withoutNaN (text: string): string {
  return text.split('\n').filter((line) => line.startsWith('#') || !/ (?:Nan|NaN)$/.test(line)).join('\n')
}

/**
 * The service's metrics (DESIGN §20), one registry per app instance plus the process's own. Every
 * label takes a bounded set of values: route patterns, never raw URLs; hook points; outcomes.
 */
/** A gauge with one sample per `state` label, read from `read` at each scrape. */
function gaugeByState (name: string, help: string, read: () => Record<string, number>): Gauge<'state'> {
  return new Gauge({
    name,
    help,
    registers: [],
    labelNames: ['state'],
    collect () {
      for (const [state, value] of Object.entries(read())) this.set({ state }, value)
    }
  })
}

export function createMetrics (sources: MetricsSources) {
  const registry = new Registry()
  const info = new Gauge({ name: 'platform_process_info', help: 'Always 1; the process role as a label', labelNames: ['role'], registers: [registry] })
  info.set({ role: sources.role }, 1)

  const httpRequests = new Counter({
    name: 'http_requests_total', help: 'HTTP requests answered, by route pattern and status class', labelNames: ['method', 'route', 'status_class'], registers: [registry]
  })
  const httpDuration = new Histogram({
    name: 'http_request_duration_seconds', help: 'Time to answer an HTTP request, by route pattern and status class', labelNames: ['method', 'route', 'status_class'], buckets: LATENCY_BUCKETS, registers: [registry]
  })
  const rateLimited = new Counter({
    name: 'rate_limit_refusals_total', help: 'Requests refused with 429 by a rate limit or throttle, by route pattern', labelNames: ['route'], registers: [registry]
  })
  const attempts = new Counter({
    name: 'webhook_delivery_attempts_total', help: 'Webhook delivery attempts, by outcome', labelNames: ['outcome'], registers: [registry]
  })
  const attemptDuration = new Histogram({
    name: 'webhook_delivery_attempt_duration_seconds', help: 'Time of one webhook delivery attempt (request to answer), by outcome', labelNames: ['outcome'], buckets: LATENCY_BUCKETS, registers: [registry]
  })
  const hookCalls = new Counter({
    name: 'hook_calls_total', help: 'Checkout hook calls, by hook point and outcome', labelNames: ['hook_point', 'outcome'], registers: [registry]
  })
  const hookDuration = new Histogram({
    name: 'hook_call_duration_seconds', help: 'Time of one checkout hook call, by hook point and outcome', labelNames: ['hook_point', 'outcome'], buckets: LATENCY_BUCKETS, registers: [registry]
  })

  const { poolStats } = sources
  if (poolStats !== undefined) {
    registry.registerMetric(gaugeByState('db_pool_connections', 'PostgreSQL pool connections, by state (in_use, idle)', () => {
      const stats = poolStats()
      return { in_use: stats.inUse, idle: stats.idle }
    }))
    registry.registerMetric(new Gauge({ name: 'db_pool_waiting_clients', help: 'Queries waiting for a PostgreSQL pool connection', registers: [], collect () { this.set(poolStats().waiting) } }))
    registry.registerMetric(new Gauge({ name: 'db_pool_max_connections', help: 'The pool size (DATABASE_POOL_SIZE)', registers: [], collect () { this.set(poolStats().size) } }))
  }

  const { queueStats } = sources
  if (queueStats !== undefined) {
    registry.registerMetric(gaugeByState(
      'db_embedded_statements',
      'Statements and transactions on the embedded database (PGlite, one connection), by state (active: holding it, waiting: queued for it)',
      () => {
        const stats = queueStats()
        return { active: stats.active, waiting: stats.waiting }
      }
    ))
  }

  registry.registerMetric(new Gauge({
    name: 'job_queue_depth',
    help: 'pg-boss jobs not finished, by queue and state (created, retry: waiting; active: running)',
    labelNames: ['queue', 'state'],
    registers: [],
    async collect () {
      try {
        const { rows } = await sources.executor.executeSql(
          `select name, state::text as state, count(*)::int as n from ${JOB_SCHEMA}.job where state <= 'active' group by name, state`)
        this.reset()
        for (const row of rows) this.set({ queue: row.name, state: row.state }, Number(row.n))
      } catch (error) {
        // a scrape still answers with everything else; the gauge keeps its last values
        sources.onError(error)
      }
    }
  }))

  return {
    registry,
    contentType: registry.contentType,
    /** The process's metrics and this app's, in the Prometheus text format, without samples that have no value yet. */
    async text (): Promise<string> {
      const [own, process] = await Promise.all([registry.metrics(), processMetrics().metrics()])
      return withoutNaN(`${own}\n${process}`)
    },
    httpRequest (method: string, route: string, statusCode: number, seconds: number): void {
      const labels = { method, route, status_class: statusClass(statusCode) }
      httpRequests.inc(labels)
      httpDuration.observe(labels, seconds)
      if (statusCode === 429) rateLimited.inc({ route })
    },
    webhookAttempt (outcome: AttemptOutcomeLabel, durationMs: number): void {
      attempts.inc({ outcome })
      attemptDuration.observe({ outcome }, durationMs / 1000)
    },
    hookCall (hookPoint: string, ok: boolean, durationMs: number): void {
      const labels = { hook_point: hookPoint, outcome: ok ? 'succeeded' : 'failed' }
      hookCalls.inc(labels)
      hookDuration.observe(labels, durationMs / 1000)
    }
  }
}

export type Metrics = ReturnType<typeof createMetrics>
