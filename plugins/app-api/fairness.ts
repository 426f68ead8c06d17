import type { HttpError } from '../../server/http-errors.ts'
import { httpError } from './errors.ts'

/** Seconds a refused or timed-out caller is asked to wait. */
const RETRY_AFTER_SECONDS = 1

export interface FairnessOptions {
  /** Requests of one business running at once. */
  perBusiness: number
  /** How long a request waits for its business's turn before 503. */
  waitMs: number
  /** Requests of one business waiting at once; one more is refused at once (429). */
  queueLimit: number
}

interface Lane { running: number, waiting: Array<{ start: () => void, timer: NodeJS.Timeout }> }

const busy = (statusCode: 429 | 503, message: string): HttpError =>
  httpError(statusCode, statusCode === 429 ? 'business_queue_full' : 'service_busy', message, {}, { 'retry-after': String(RETRY_AFTER_SECONDS) })

/**
 * Fair use of the database pool across businesses (#28 item 7): at most `perBusiness` App API
 * requests of one business run at once in this process, so one business's heavy lists cannot hold
 * every pool connection while another business's order by id waits. The others wait their turn in
 * order (up to `waitMs`, then 503 with Retry-After); a business with `queueLimit` already waiting is
 * answered 429 with Retry-After at once.
 */
export function createFairness (options: FairnessOptions) {
  const lanes = new Map<string, Lane>()

  function release (key: string): void {
    const lane = lanes.get(key)
    if (lane === undefined) return
    const next = lane.waiting.shift()
    if (next !== undefined) {
      clearTimeout(next.timer)
      next.start()
      return
    }
    lane.running--
    if (lane.running === 0) lanes.delete(key)
  }

  /** Waits for a turn of `key`'s lane; resolves with the function that gives it back (call it once). */
  async function acquire (key: string): Promise<() => void> {
    let lane = lanes.get(key)
    if (lane === undefined) lanes.set(key, lane = { running: 0, waiting: [] })
    let released = false
    const done = () => {
      if (released) return
      released = true
      release(key)
    }
    if (lane.running < options.perBusiness) {
      lane.running++
      return done
    }
    if (lane.waiting.length >= options.queueLimit) throw busy(429, 'Too many requests of this business at once; retry shortly')
    const waiting = lane
    return await new Promise((resolve, reject) => {
      const entry = {
        // a finished request hands its turn over: `running` stays as it is
        start: () => resolve(done),
        timer: setTimeout(() => {
          waiting.waiting.splice(waiting.waiting.indexOf(entry), 1)
          reject(busy(503, 'The service is busy; retry shortly'))
        }, options.waitMs)
      }
      waiting.waiting.push(entry)
    })
  }

  /** Requests of `key` running and waiting now (metrics, tests). */
  const load = (key: string) => ({ running: lanes.get(key)?.running ?? 0, waiting: lanes.get(key)?.waiting.length ?? 0 })

  return { acquire, load }
}
export type Fairness = ReturnType<typeof createFairness>
