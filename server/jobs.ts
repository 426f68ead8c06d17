import { EventEmitter, once } from 'node:events'
import { setImmediate as nextTurn } from 'node:timers/promises'
import PgBoss from 'pg-boss'
import type { SqlExecutor } from './db/client.ts'
import { PLATFORM, runAs } from './actor.ts'

export const JOB_SCHEMA = 'pgboss'
/** pg-boss 10's lowest polling interval; workers are also woken directly after a send. */
const POLLING_INTERVAL_SECONDS = 0.5
/** How long a stop waits for running jobs before it lets the database close under them. */
const STOP_TIMEOUT_MS = 10_000

export type JobHandler<T> = (job: PgBoss.Job<T>) => Promise<void>

export interface WorkOptions { batchSize?: number, teamConcurrency?: number }

/**
 * pg-boss on the platform's own database (PGlite included, through pg-boss's `db.executeSql`).
 * `runWorkers: false` (PROCESS_ROLE=web) still sends jobs but never takes any.
 */
export function createJobs (executor: SqlExecutor, options: { runWorkers: boolean, onError: (error: Error) => void }) {
  // pg-boss's own queries and the handlers still running: a stop waits for both (see stop)
  let busy = 0
  const idle = new EventEmitter()
  async function counted<T> (work: () => Promise<T>): Promise<T> {
    busy++
    try {
      return await work()
    } finally {
      if (--busy === 0) idle.emit('idle')
    }
  }
  const boss = new PgBoss({
    db: { executeSql: async (text: string, values?: unknown[]) => await counted(async () => await executor.executeSql(text, values)) },
    schema: JOB_SCHEMA,
    supervise: options.runWorkers,
    schedule: options.runWorkers,
    migrate: true
  } as PgBoss.ConstructorOptions)
  boss.on('error', options.onError)
  let started = false
  const queues = new Map<string, Promise<void>>()
  let creating: Promise<unknown> = Promise.resolve()

  /**
   * Creates a queue once per process. Creations run one at a time: pg-boss builds a partition per
   * queue, and two concurrent creations deadlock on PostgreSQL.
   */
  function ensureQueue (name: string, queueOptions: Omit<PgBoss.Queue, 'name'> = {}): Promise<void> {
    let pending = queues.get(name)
    if (pending === undefined) {
      pending = creating.then(async () => {
        for (let attempt = 1; ; attempt++) {
          try {
            if (await boss.getQueue(name) === null) await boss.createQueue(name, { name, ...queueOptions })
            return
          } catch (error) {
            // another process created it at the same moment
            if (attempt >= 3 || !/deadlock|already exists|duplicate key/i.test(String((error as Error).message))) throw error
          }
        }
      })
      pending.catch(() => queues.delete(name))
      queues.set(name, pending)
      creating = pending.catch(() => {})
    }
    return pending
  }

  return {
    boss,
    get started () { return started },
    async start (): Promise<void> {
      await boss.start()
      started = true
    },
    /**
     * Stops taking jobs and waits for the running ones. pg-boss's graceful stop waits for the jobs its
     * workers hold, but not for a fetch still in flight: its jobs start after the stop, and their
     * handlers, and pg-boss's complete or fail of them (not awaited by pg-boss), would meet a closed
     * database. So the stop also waits until no pg-boss query and no handler is running.
     */
    async stop (): Promise<void> {
      if (!started) return
      started = false
      const deadline = performance.now() + STOP_TIMEOUT_MS
      await boss.stop({ graceful: true, wait: true, timeout: STOP_TIMEOUT_MS })
      while (performance.now() < deadline) {
        // a fetch that has just answered starts its handler on a later turn
        await nextTurn()
        if (busy === 0) return
        await Promise.race([once(idle, 'idle'), new Promise((resolve) => setTimeout(resolve, deadline - performance.now()).unref())])
      }
    },
    ensureQueue,
    /** Registers a handler, one job at a time per worker; a thrown error fails (and retries) the job. */
    async work<T extends object> (name: string, handler: JobHandler<T>, workOptions: WorkOptions = {}): Promise<void> {
      await ensureQueue(name)
      if (!options.runWorkers) return
      const concurrency = workOptions.teamConcurrency ?? 1
      for (let i = 0; i < concurrency; i++) {
        await boss.work<T>(name, { pollingIntervalSeconds: POLLING_INTERVAL_SECONDS, batchSize: workOptions.batchSize ?? 1 }, async (jobs) => {
          // a job's changes are the platform's in the activity log, whatever context started the worker
          for (const job of jobs) await counted(async () => { await runAs(PLATFORM, async () => { await handler(job) }) })
        })
      }
    },
    async send<T extends object> (name: string, data: T, sendOptions: PgBoss.SendOptions = {}): Promise<string | null> {
      await ensureQueue(name)
      return await boss.send(name, data, sendOptions)
    }
  }
}

export type Jobs = ReturnType<typeof createJobs>
