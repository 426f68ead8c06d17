import type { Redis } from 'ioredis'

/** How long an account's failures are remembered after the last one. */
const FAILURE_MEMORY_MS = 24 * 3600_000
/** First block, doubled with every further failure. */
const BASE_BLOCK_MS = 1000

export interface AccountThrottleOptions {
  /** Failed logins allowed before the account is blocked for a while. */
  freeFailures: number
  /** The longest block: after it the right password always gets through once. */
  maxBlockMs: number
}

export interface FailureState { failures: number, blockedUntil: number }

/** Where the failures live: this process, or Redis shared by every process. */
export interface FailureStore {
  get: (key: string) => Promise<FailureState>
  set: (key: string, state: FailureState) => Promise<void>
  reset: (key: string) => Promise<void>
}

export function memoryFailureStore (): FailureStore {
  const states = new Map<string, FailureState & { expires: number }>()
  return {
    async get (key) {
      const state = states.get(key)
      if (state === undefined || state.expires < Date.now()) return { failures: 0, blockedUntil: 0 }
      return { failures: state.failures, blockedUntil: state.blockedUntil }
    },
    async set (key, state) {
      // bounded: forget the oldest when an attacker sprays many addresses
      if (states.size >= 100_000) states.delete(states.keys().next().value as string)
      states.delete(key)
      states.set(key, { ...state, expires: Date.now() + FAILURE_MEMORY_MS })
    },
    async reset (key) { states.delete(key) }
  }
}

export function redisFailureStore (redis: Redis): FailureStore {
  const name = (key: string) => `platform-auth-failures:${key}`
  return {
    async get (key) {
      const raw = await redis.hgetall(name(key))
      return { failures: Number(raw.failures ?? 0), blockedUntil: Number(raw.blockedUntil ?? 0) }
    },
    async set (key, state) {
      await redis.multi().hset(name(key), { failures: state.failures, blockedUntil: state.blockedUntil }).pexpire(name(key), FAILURE_MEMORY_MS).exec()
    },
    async reset (key) { await redis.del(name(key)) }
  }
}

/**
 * Per-account login throttle (DESIGN §16): after `freeFailures` wrong passwords the account is blocked
 * for 1 s, then 2 s, 4 s … up to `maxBlockMs`; a blocked attempt is refused before any password hash is
 * computed. A block always ends, and the right password then resets the count: the throttle slows a
 * guesser down, it never locks the owner out for good. A store that fails lets the attempt through.
 */
export function createAccountThrottle (store: FailureStore, options: AccountThrottleOptions) {
  return {
    /** Milliseconds the account must still wait, or 0. */
    async waitMs (account: string, now = Date.now()): Promise<number> {
      const state = await store.get(account).catch(() => ({ failures: 0, blockedUntil: 0 }))
      return Math.max(0, state.blockedUntil - now)
    },
    async failed (account: string, now = Date.now()): Promise<void> {
      const { failures } = await store.get(account).catch(() => ({ failures: 0 }))
      const count = failures + 1
      const over = count - options.freeFailures
      const blockedUntil = over < 0 ? 0 : now + Math.min(BASE_BLOCK_MS * 2 ** Math.min(over, 30), options.maxBlockMs)
      await store.set(account, { failures: count, blockedUntil }).catch(() => {})
    },
    async succeeded (account: string): Promise<void> {
      await store.reset(account).catch(() => {})
    }
  }
}

export type AccountThrottle = ReturnType<typeof createAccountThrottle>
