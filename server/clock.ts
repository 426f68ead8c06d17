import fp from 'fastify-plugin'
import { sql } from 'drizzle-orm'

/**
 * The one clock the server reads (as pg-boss reads its own): expiries, blocks, windows, TTLs and the
 * stamps the code writes all ask it, so tests move time forward instead of waiting for it
 * (test/clock.ts). The exceptions, which must be the machine's wall time or elapsed real time, are
 * listed beside the lint rule that enforces this (eslint.config.js). Time the database keeps (column
 * defaults, leases, the retry schedule, pg-boss's startAfter) is the database's clock: docs/decisions.md.
 */
export interface Clock {
  /** The current time. */
  now: () => Date
  /** The current time in milliseconds since the epoch. */
  nowMs: () => number
}

/** The machine's clock: what the server runs on. */
export const systemClock: Clock = {
  now: () => new Date(),
  nowMs: () => Date.now()
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The time (server/clock.ts): `fastify.clock.now()`, never `new Date()`. */
    clock: Clock
  }
}

export default fp(async function clockPlugin (fastify, opts: { clock?: Clock }) {
  fastify.decorate('clock', opts.clock ?? systemClock)
}, { name: 'clock' })

/**
 * The database's now() as a value to write: the stamps nothing decides on (`updatedAt`, `completedAt`, …)
 * take the same clock as the columns' defaults, in the statement that writes them.
 */
export const databaseNow = (): Date => sql`now()` as unknown as Date
