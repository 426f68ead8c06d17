import { sql } from 'drizzle-orm'
import type { Db } from '../../server/db/client.ts'
import type { Clock } from '../../server/clock.ts'

/** Whether installations are test installs (their counts go to the sandbox): installations' answer. */
export type FactsOf = (ids: string[]) => Promise<Map<string, { isTestInstall: boolean }>>

/** How often the in-memory counts are written (one statement for all of them). */
export const COUNTER_FLUSH_MS = 2000

const utcDay = (at: Date) => at.toISOString().slice(0, 10)
const DAY_MS = 86_400_000

/** One counter increment; the installation decides live or sandbox when it is written. */
interface Increment { appId: string, installationId: string, day: string, metric: string, n: number }

/**
 * Counts in memory, merged by (app, installation, day, metric), and written in one upsert every
 * COUNTER_FLUSH_MS and on close: no write per request or per attempt. A crash loses at most the
 * counts of the last interval (docs/decisions.md).
 */
export function createCounterBuffer (db: Db, clock: Clock, onError: (error: unknown) => void, testInstalls: () => { factsOf: FactsOf }) {
  let pending = new Map<string, Increment>()
  let running: Promise<void> = Promise.resolve()
  // the UTC day of now, worked out again only when the clock leaves it (not with a Date per count)
  let day = { from: 0, to: -1, name: '' }
  function today (): string {
    const now = clock.nowMs()
    if (now < day.from || now >= day.to) {
      const from = now - (now % DAY_MS)
      day = { from, to: from + DAY_MS, name: utcDay(new Date(from)) }
    }
    return day.name
  }

  function add (appId: string, installationId: string, metric: string, n = 1, on = today()): void {
    if (n === 0) return
    const key = `${appId}\u0000${installationId}\u0000${on}\u0000${metric}`
    const current = pending.get(key)
    if (current === undefined) pending.set(key, { appId, installationId, day: on, metric, n })
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

export type CounterBuffer = ReturnType<typeof createCounterBuffer>
