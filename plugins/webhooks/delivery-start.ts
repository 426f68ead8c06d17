import type { FastifyInstance } from 'fastify'
import { sql } from 'drizzle-orm'
import { deleteInBatches, rows } from '../../server/db/rows.ts'
import { OUTBOX_CHANNEL, pruneDispatched } from '../../server/events.ts'
import { databaseNowMinus } from '../../server/clock.ts'
import { createSender, relayedResult } from './sender.ts'
import { createAttemptQueue, type AttemptItem } from './attempt-queue.ts'
import { createDeliveryEngine, DELIVER_JOB } from './delivery.ts'
import { DISPATCH_BATCH, dispatchBatch } from './dispatcher.ts'
import type { AppAnalytics } from '../app-analytics/index.ts'
import type { Commerce } from '../commerce/index.ts'
import type { Relay } from '../relay/index.ts'

export type WebhookDelivery = ReturnType<typeof createWebhookDelivery>

/** What the delivery engine asks of the others: a business's currency (older API versions' bodies), the local relay, the counters. */
export interface WebhookDeliveryNeeds {
  commerce: Pick<Commerce, 'getBusinessProfile'>
  relay: Pick<Relay, 'call'>
  appAnalytics: Pick<AppAnalytics, 'recordAttempt' | 'recordVersionUse'>
}

/** Attempts running at once in one process. */
const CONCURRENCY = 64
/**
 * Attempts waiting in one process at most before it takes more events: the rest wait in the outbox,
 * unleased, for this process or another, instead of in memory while their lease runs out.
 */
export const MAX_QUEUED = CONCURRENCY * 64
/** Safety net besides LISTEN: how often the outbox and stale deliveries are looked at. */
const SWEEP_INTERVAL_MS = 2000
/** A due delivery is left to its pg-boss job this long before the sweep takes it over. */
const SWEEP_GRACE_SECONDS = 5
const SWEEP_BATCH = 500
const IDLE_TIMEOUT_MS = 30_000
const IDLE_POLL_MS = 25
export const PRUNE_JOB = 'webhooks.prune'
/** Daily, at a quiet minute. */
const PRUNE_CRON = '17 3 * * *'

/** A recorded attempt's delivery status, as the metrics name its outcome (PENDING after an attempt: a retry is scheduled). */
const ATTEMPT_OUTCOME = { SUCCEEDED: 'succeeded', FAILED: 'failed', PENDING: 'retrying' } as const

function createWebhookDelivery (fastify: FastifyInstance, { commerce, relay, appAnalytics }: WebhookDeliveryNeeds) {
  const { config } = fastify
  const sender = createSender({ timeoutMs: config.webhookTimeoutMs, outbound: fastify.outbound })
  const onError = (error: unknown) => fastify.log.error({ err: error }, 'webhook delivery error')
  const engine = createDeliveryEngine({
    db: fastify.db,
    clock: fastify.clock,
    jobs: fastify.jobs,
    sender,
    encryptionKey: config.encryptionKey,
    timeoutMs: config.webhookTimeoutMs,
    retryScheduleSeconds: config.webhookRetryScheduleSeconds,
    disableAfterFailures: config.webhookDisableAfterFailures,
    onDisabled: (webhookId, reason) => fastify.log.warn({ webhookId }, reason),
    onWriteError: onError,
    currencyOf: async (businessId) => (await commerce.getBusinessProfile(businessId)).currency,
    relay: async (claimed, url, body, headers) => {
      const outcome = await relay.call({
        appId: claimed.appId, businessId: claimed.businessId, kind: 'webhook', name: claimed.event, url, headers, body, timeoutMs: config.webhookTimeoutMs
      })
      return outcome === null ? null : relayedResult(outcome, config.webhookTimeoutMs)
    },
    onAttempt: (outcome) => {
      if (outcome.counts) fastify.metrics.webhookAttempt(ATTEMPT_OUTCOME[outcome.status], outcome.durationMs)
      appAnalytics.recordAttempt(outcome)
      if (outcome.counts) appAnalytics.recordVersionUse(outcome.appId, outcome.installationId, 'webhooks', outcome.apiVersion)
      fastify.liveEvents.publish(outcome.appId, {
        type: 'delivery', id: outcome.deliveryId, installationId: outcome.installationId, webhookId: outcome.webhookId, event: outcome.event,
        status: outcome.status, attempt: outcome.attempt, statusCode: outcome.statusCode, error: outcome.error, durationMs: outcome.durationMs,
        relayed: outcome.relayed, at: fastify.clock.now().toISOString()
      })
    }
  })
  // set when the dispatch stopped for a full queue: the queue asks for more once it is half empty
  let waitingForRoom = false
  const queue = createAttemptQueue(async (item) => {
    // a success's write goes on in the background: the slot sends the next attempt meanwhile
    await engine.attempt(item, { background: true })
    if (waitingForRoom && queue.size <= MAX_QUEUED / 2) {
      waitingForRoom = false
      void dispatch()
    }
  }, { concurrency: CONCURRENCY, onError })

  // One dispatch loop per process; a wake-up during a run makes it go round once more.
  let dispatching: Promise<void> | null = null
  let again = false
  let closing = false
  /** Whether the queue takes another batch; if not, it asks for one once it is half empty. */
  function roomLeft (): boolean {
    if (queue.size < MAX_QUEUED) return true
    waitingForRoom = true
    return false
  }

  function dispatch (): Promise<void> {
    if (closing) return dispatching ?? Promise.resolve()
    if (dispatching !== null) {
      again = true
      return dispatching
    }
    // checked before the loop starts: a loop that ended without awaiting would clear `dispatching` before it is set
    if (!roomLeft()) return Promise.resolve()
    dispatching = (async () => {
      try {
        do {
          again = false
          while (roomLeft()) {
            const { events, items } = await dispatchBatch(fastify.db, engine.leaseMs)
            queue.push(engine.track(items))
            if (events < DISPATCH_BATCH) break
          }
          // eslint-disable-next-line no-unmodified-loop-condition -- dispatch() and close() set them while this loop awaits
        } while (again && !closing)
      } catch (error) {
        onError(error)
      } finally {
        dispatching = null
      }
    })()
    return dispatching
  }

  /** Deliveries nobody is attempting although they are due: their process died, or their job was lost. */
  async function sweep (): Promise<void> {
    await dispatch()
    const stale = (await rows(fastify.db, sql<{ id: string }>`select id from webhook_deliveries
      where status = 'PENDING' and next_attempt_at < ${databaseNowMinus({ seconds: SWEEP_GRACE_SECONDS })}
        and (locked_until is null or locked_until < now())
      order by next_attempt_at limit ${SWEEP_BATCH}`))
    queue.push(stale.map((row): AttemptItem => ({ id: row.id })))
  }

  /** Resolves when nothing is queued or running here and every outcome given so far is written (tests, bench). */
  async function settled (): Promise<void> {
    await queue.idle()
    await engine.drain()
  }

  /** Attempts, deliveries (finished ones) and dispatched outbox events older than the retention. */
  async function prune (): Promise<{ attempts: number, deliveries: number, events: number }> {
    const days = config.deliveryLogRetentionDays
    const cutoff = databaseNowMinus({ days })
    // in batches inside the database (deleteInBatches): deliveries keep flowing while a big log is pruned
    const attempts = await deleteInBatches(fastify.db, 'webhook_attempts', 'id', sql`created_at < ${cutoff}`)
    const deliveries = await deleteInBatches(fastify.db, 'webhook_deliveries', 'id', sql`created_at < ${cutoff} and status <> 'PENDING'`)
    // dispatched events as old: their deliveries hold their data; an event not yet dispatched stays whatever its age
    const events = await pruneDispatched(fastify.db, cutoff)
    return { attempts, deliveries, events }
  }

  /**
   * Resolves once nothing is left to do now: every committed event dispatched, no attempt queued or
   * running here, and no delivery due (retries scheduled for later are not waited for). For a worker
   * process; tests await it instead of sleeping, and it fails after `timeoutMs` rather than hang.
   */
  async function idle (timeoutMs = IDLE_TIMEOUT_MS): Promise<void> {
    const deadline = performance.now() + timeoutMs
    for (;;) {
      await dispatch()
      await settled()
      const [left] = await rows(fastify.db, sql<{ undispatched: number, due: number }>`select
        (select count(*)::int from outbox_events where dispatched_at is null) as undispatched,
        (select count(*)::int from webhook_deliveries where status = 'PENDING' and next_attempt_at <= now()) as due`)
      if (left.undispatched === 0 && left.due === 0 && queue.size === 0) return
      if (performance.now() > deadline) throw new Error(`webhook delivery not idle after ${timeoutMs} ms: ${JSON.stringify(left)}`)
      // a due retry waits for its job (or another process's attempt): look again shortly
      await new Promise((resolve) => setTimeout(resolve, IDLE_POLL_MS))
    }
  }

  /** Stops dispatching, lets the running attempts finish and their outcomes be written, closes the connection pool (once). */
  let closed: Promise<void> | null = null
  async function close (): Promise<void> {
    closed ??= (async () => {
      closing = true
      await (dispatching ?? Promise.resolve())
      await queue.stop()
      await engine.drain()
      await sender.close()
    })()
    await closed
  }

  return { sender, engine, queue, dispatch, sweep, prune, idle, settled, close }
}

/**
 * The webhook dispatcher and delivery worker. Worker processes (PROCESS_ROLE worker|all) LISTEN on
 * the outbox channel, sweep every few seconds, take retry jobs from pg-boss and prune the log daily;
 * web processes only write events (and answer the test operation, which sends synchronously).
 */
export async function startWebhookDelivery (fastify: FastifyInstance, needs: WebhookDeliveryNeeds): Promise<WebhookDelivery> {
  const delivery = createWebhookDelivery(fastify, needs)
  let timer: NodeJS.Timeout | null = null
  let unlisten: (() => Promise<void>) | null = null

  if (fastify.config.processRole !== 'web') {
    await fastify.jobs.work<{ deliveryId: string }>(DELIVER_JOB, async (job) => {
      delivery.queue.push([{ id: job.data.deliveryId }])
    }, { batchSize: 50 })
    await fastify.jobs.work(PRUNE_JOB, async () => {
      fastify.log.info(await delivery.prune(), 'webhook log pruned')
    })
    await fastify.jobs.boss.schedule(PRUNE_JOB, PRUNE_CRON)
    fastify.addHook('onReady', async () => {
      // wake-ups missed while the LISTEN connection was down are made up for at once (the sweep would, later)
      unlisten = await fastify.database.listen(OUTBOX_CHANNEL, () => { void delivery.dispatch() }, { onRestored: () => { void delivery.dispatch() } })
      void delivery.sweep().catch((error) => fastify.log.error({ err: error }, 'webhook sweep failed'))
      timer = setInterval(() => {
        delivery.sweep().catch((error) => fastify.log.error({ err: error }, 'webhook sweep failed'))
      }, SWEEP_INTERVAL_MS)
      timer.unref()
    })
  } else {
    await fastify.jobs.ensureQueue(DELIVER_JOB)
  }

  // Before the jobs and the database close: stop waking up, let running attempts finish.
  fastify.addHook('preClose', async () => {
    if (timer !== null) clearInterval(timer)
    if (unlisten !== null) await unlisten().catch(() => {})
    await delivery.close()
  })
  return delivery
}
