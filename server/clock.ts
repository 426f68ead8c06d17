import fp from 'fastify-plugin'
import { sql, type SQL } from 'drizzle-orm'

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

declare const databaseTimeBrand: unique symbol

/**
 * A time the database computes in the statement that carries it (`now()`, `now() + interval …`): a value
 * drizzle writes (`.values({…})`, `.set({…})`) or compares with (`lt(column, databaseNow())`, a `sql`
 * template), never a JavaScript `Date`. It is SQL, not a time: it has no `.getTime()` and a `Date` does not
 * take it, so a read of it as a time fails to compile instead of at run time (test/server/db-time.test.ts).
 */
export type DatabaseTime = SQL<Date> & { readonly [databaseTimeBrand]: true }

/**
 * A span of the database's time in one unit: whole milliseconds (leases), seconds with a fraction (the
 * retry schedule), whole days (retention).
 */
export type DatabaseInterval =
  | { readonly milliseconds: number, readonly seconds?: never, readonly days?: never }
  | { readonly seconds: number, readonly milliseconds?: never, readonly days?: never }
  | { readonly days: number, readonly milliseconds?: never, readonly seconds?: never }

function intervalSql (interval: DatabaseInterval): SQL {
  if (interval.milliseconds !== undefined) return sql`${interval.milliseconds}::int * interval '1 millisecond'`
  if (interval.seconds !== undefined) return sql`${interval.seconds}::float8 * interval '1 second'`
  return sql`${interval.days}::int * interval '1 day'`
}

const databaseTime = (expression: SQL<Date>): DatabaseTime => expression as DatabaseTime

/**
 * The database's now() as a value to write: the stamps nothing decides on (`updatedAt`, `completedAt`, …)
 * take the same clock as the columns' defaults, in the statement that writes them.
 */
export const databaseNow = (): DatabaseTime => databaseTime(sql<Date>`now()`)

/** The database's now() plus `interval`: a lease's end (`{ milliseconds: leaseMs }`), a retry's time. */
export const databaseNowPlus = (interval: DatabaseInterval): DatabaseTime => databaseTime(sql<Date>`(now() + ${intervalSql(interval)})`)

/** The database's now() minus `interval`: a retention cutoff (`{ days }`), a grace period. */
export const databaseNowMinus = (interval: DatabaseInterval): DatabaseTime => databaseTime(sql<Date>`(now() - ${intervalSql(interval)})`)
