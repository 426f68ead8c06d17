import PgBoss from 'pg-boss'
import type { SqlExecutor } from './db/client.ts'

export const JOB_SCHEMA = 'pgboss'
/** pg-boss 10's lowest polling interval; workers are also woken directly after a send. */
const POLLING_INTERVAL_SECONDS = 0.5

export type JobHandler<T> = (job: PgBoss.Job<T>) => Promise<void>

export interface WorkOptions { batchSize?: number, teamConcurrency?: number }

/**
 * pg-boss on the platform's own database (PGlite included, through pg-boss's `db.executeSql`).
 * `runWorkers: false` (PROCESS_ROLE=web) still sends jobs but never takes any.
 */
export function createJobs (executor: SqlExecutor, options: { runWorkers: boolean, onError: (error: Error) => void }) {
  const boss = new PgBoss({
    db: executor,
    schema: JOB_SCHEMA,
    supervise: options.runWorkers,
    schedule: options.runWorkers,
    migrate: true
  } as PgBoss.ConstructorOptions)
  boss.on('error', options.onError)
  const queues = new Set<string>()
  let started = false

  async function ensureQueue (name: string, queueOptions: Omit<PgBoss.Queue, 'name'> = {}): Promise<void> {
    if (queues.has(name)) return
    await boss.createQueue(name, { name, ...queueOptions })
    queues.add(name)
  }

  return {
    boss,
    get started () { return started },
    async start (): Promise<void> {
      await boss.start()
      started = true
    },
    async stop (): Promise<void> {
      if (!started) return
      started = false
      await boss.stop({ graceful: true, wait: true, timeout: 10_000 })
    },
    ensureQueue,
    /** Registers a handler, one job at a time per worker; a thrown error fails (and retries) the job. */
    async work<T extends object> (name: string, handler: JobHandler<T>, workOptions: WorkOptions = {}): Promise<void> {
      await ensureQueue(name)
      if (!options.runWorkers) return
      const concurrency = workOptions.teamConcurrency ?? 1
      for (let i = 0; i < concurrency; i++) {
        await boss.work<T>(name, { pollingIntervalSeconds: POLLING_INTERVAL_SECONDS, batchSize: workOptions.batchSize ?? 1 }, async (jobs) => {
          for (const job of jobs) await handler(job)
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
