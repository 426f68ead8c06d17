import type { Redis } from 'ioredis'
import { and, eq, gt, lt } from 'drizzle-orm'
import type { Db } from '../../server/db/client.ts'
import { authFailures } from '../../server/db/schema/index.ts'
import type { Clock } from '../../server/clock.ts'

/** How long an account's failures are remembered after the last one. */
const FAILURE_MEMORY_MS = 24 * 3600_000
/** First block, doubled with every further failure. */
const BASE_BLOCK_MS = 1000

/** The ceiling of the account-wide block, which strangers' failures can cause: short, so the owner waits at most this (DESIGN §21). */
export const ACCOUNT_WIDE_MAX_BLOCK_MS = 60_000

export interface AccountThrottleOptions {
  /** Failed logins allowed from one client address before that address is blocked for the account. */
  freeFailures: number
  /** The longest block of one address: after it the right password always gets through once. */
  maxBlockMs: number
  /** What blocks are measured on. */
  clock: Clock
}

export interface FailureState { failures: number, blockedUntil: number }

/** Where the failures live: this process, or Redis shared by every process. */
export interface FailureStore {
  get: (key: string) => Promise<FailureState>
  set: (key: string, state: FailureState) => Promise<void>
  reset: (key: string) => Promise<void>
}

export function memoryFailureStore (clock: Clock): FailureStore {
  const states = new Map<string, FailureState & { expires: number }>()
  return {
    async get (key) {
      const state = states.get(key)
      if (state === undefined || state.expires < clock.nowMs()) return { failures: 0, blockedUntil: 0 }
      return { failures: state.failures, blockedUntil: state.blockedUntil }
    },
    async set (key, state) {
      // bounded: forget the oldest when an attacker sprays many addresses
      if (states.size >= 100_000) states.delete(states.keys().next().value as string)
      states.delete(key)
      states.set(key, { ...state, expires: clock.nowMs() + FAILURE_MEMORY_MS })
    },
    async reset (key) { states.delete(key) }
  }
}

/** The failures in PostgreSQL (or PGlite), shared by every process when there is no Redis. */
export function databaseFailureStore (db: Db, clock: Clock): FailureStore {
  return {
    async get (key) {
      const [row] = await db.select().from(authFailures).where(and(eq(authFailures.key, key), gt(authFailures.expiresAt, clock.now()))).limit(1)
      return row === undefined ? { failures: 0, blockedUntil: 0 } : { failures: row.failures, blockedUntil: row.blockedUntil }
    },
    async set (key, state) {
      const expiresAt = new Date(clock.nowMs() + FAILURE_MEMORY_MS)
      await db.insert(authFailures).values({ key, ...state, expiresAt })
        .onConflictDoUpdate({ target: authFailures.key, set: { ...state, expiresAt } })
      await db.delete(authFailures).where(lt(authFailures.expiresAt, clock.now()))
    },
    async reset (key) { await db.delete(authFailures).where(eq(authFailures.key, key)) }
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

/** The block after `over` failures past the free ones: 1 s, doubling, up to `ceiling`. */
function blockMs (over: number, ceiling: number): number {
  return over < 0 ? 0 : Math.min(BASE_BLOCK_MS * 2 ** Math.min(over, 30), ceiling)
}

/**
 * Sign-in throttle keyed on account and client address together (DESIGN §21): after `freeFailures`
 * wrong passwords from one address, that address is blocked for the account for 1 s, then 2 s, 4 s …
 * up to `maxBlockMs`, so a stranger's failures never lock the owner out from elsewhere. Each address
 * adds at most its free failures to an account-wide count; past `freeFailures` × 2 of those (credential
 * stuffing from many addresses) the whole account backs off too, capped at 60 s. A blocked attempt is
 * refused before any password hash is computed; a block always ends, and the right password resets
 * both counts. A store that fails lets the attempt through.
 */
export function createAccountThrottle (store: FailureStore, options: AccountThrottleOptions) {
  const accountFree = options.freeFailures * 2
  const pairKey = (account: string, address: string) => `${account}|${address}`
  const read = async (key: string) => await store.get(key).catch(() => ({ failures: 0, blockedUntil: 0 }))
  const write = async (key: string, state: FailureState) => { await store.set(key, state).catch(() => {}) }

  return {
    /** Milliseconds this address must still wait before trying the account, or 0. */
    async waitMs (account: string, address: string, now = options.clock.nowMs()): Promise<number> {
      const [pair, wide] = await Promise.all([read(pairKey(account, address)), read(account)])
      return Math.max(0, pair.blockedUntil - now, wide.blockedUntil - now)
    },
    async failed (account: string, address: string, now = options.clock.nowMs()): Promise<void> {
      const pair = await read(pairKey(account, address))
      const count = pair.failures + 1
      await write(pairKey(account, address), { failures: count, blockedUntil: now + blockMs(count - options.freeFailures, options.maxBlockMs) })
      if (count > options.freeFailures) return
      const wide = await read(account)
      const total = wide.failures + 1
      await write(account, { failures: total, blockedUntil: now + blockMs(total - accountFree, ACCOUNT_WIDE_MAX_BLOCK_MS) })
    },
    async succeeded (account: string, address: string): Promise<void> {
      await Promise.all([store.reset(pairKey(account, address)).catch(() => {}), store.reset(account).catch(() => {})])
    }
  }
}

export type AccountThrottle = ReturnType<typeof createAccountThrottle>
