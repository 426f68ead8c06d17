import type { Clock } from '../server/clock.ts'

export interface TestClockOptions {
  /** Where the clock starts (ms since the epoch); the machine's time when left out. */
  startMs?: number
  /**
   * Stands still until the test moves it: for a test about a window or a block, which a loaded
   * machine must not close early. Left out, the clock runs with the machine's time (plus what
   * the test added), so rows stamped one after another still sort as they were written.
   */
  frozen?: boolean
}

/**
 * The clock a test moves (server/clock.ts): `advance` jumps over an expiry, a block or a TTL
 * instead of waiting for it. Build an app on it with `build(t, { clock })`.
 */
export class TestClock implements Clock {
  /** Frozen: the time itself; running: what is added to the machine's time. */
  #ms: number
  readonly #frozen: boolean

  constructor (options: TestClockOptions = {}) {
    this.#frozen = options.frozen === true
    const start = options.startMs ?? Date.now()
    this.#ms = this.#frozen ? start : start - Date.now()
  }

  readonly now = (): Date => new Date(this.nowMs())
  readonly nowMs = (): number => this.#frozen ? this.#ms : Date.now() + this.#ms

  /** Moves time forward by `ms` (never back: what the server wrote stays in its past). */
  advance (ms: number): void {
    if (!(ms >= 0)) throw new Error(`a test clock only moves forward (asked to move ${ms} ms)`)
    this.#ms += ms
  }
}
