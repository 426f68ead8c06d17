import t from 'tap'
import { eq, gt, lt, sql } from 'drizzle-orm'
import { integer, pgTable, timestamp } from 'drizzle-orm/pg-core'
import { databaseNow, databaseNowMinus, databaseNowPlus, type DatabaseTime } from '../../server/clock.ts'
import { rows } from '../../server/db/rows.ts'
import { testDatabase } from '../database.ts'

// The database's time (server/clock.ts): SQL the statement computes, which TypeScript keeps apart from a JavaScript Date.

/** What must not compile (npx tsc checks these lines); never called, since each line would fail at run time. */
export function misuses (): unknown[] {
  return [
    // @ts-expect-error a DatabaseTime is SQL, not a Date: it has no getTime()
    databaseNow().getTime(),
    // @ts-expect-error nor toISOString()
    databaseNowPlus({ seconds: 1 }).toISOString(),
    (() => {
      // @ts-expect-error a Date does not take it
      const at: Date = databaseNow()
      return at
    })(),
    ((take: (at: Date) => Date) =>
      // @ts-expect-error nor does a Date-typed parameter
      take(databaseNowMinus({ days: 1 })))((at) => at),
    (() => {
      // @ts-expect-error any SQL is not a DatabaseTime: only the helpers make one
      const at: DatabaseTime = sql`now()`
      return at
    })(),
    // @ts-expect-error an interval is in one unit
    databaseNowPlus({ seconds: 1, days: 1 }),
    // @ts-expect-error a number of what: an interval names its unit
    databaseNowPlus(1000)
  ]
}

/** A table of this test's own: one timestamp column written and compared with database time. */
const probe = pgTable('db_time_probe', {
  id: integer('id').primaryKey(),
  at: timestamp('at', { withTimezone: true, mode: 'date' })
})

t.test('rows get the database time, intervals in their unit', async (t) => {
  const database = await testDatabase(t)
  const { db } = database
  await db.execute(sql`create table db_time_probe (id integer primary key, at timestamptz)`)

  // inside one transaction now() is the transaction's start: the rows hold exactly the database's now(), +/- the interval
  const written = await db.transaction(async (tx) => {
    await tx.insert(probe).values([
      { id: 1, at: databaseNow() },
      { id: 2, at: databaseNowPlus({ milliseconds: 3_600_000 }) },
      { id: 3, at: databaseNowPlus({ seconds: 7200.25 }) },
      { id: 4, at: databaseNowMinus({ days: 2 }) },
      { id: 5, at: null }
    ])
    await tx.update(probe).set({ at: databaseNowMinus({ seconds: 90 }) }).where(eq(probe.id, 5))
    return await rows(tx, sql<{ id: number, offset_ms: number }>`select id, (extract(epoch from at - now()) * 1000)::float8 as offset_ms
      from db_time_probe order by id`)
  })
  t.same(written.map((row) => [row.id, Number(row.offset_ms)]), [[1, 0], [2, 3_600_000], [3, 7_200_250], [4, -2 * 86_400_000], [5, -90_000]],
    'now(), +1 h in ms, +2 h 0.25 s in seconds, -2 days, and -90 s through set()')

  // the comparisons take it too: what is past against what is still ahead of the database's now()
  const past = await db.select({ id: probe.id }).from(probe).where(lt(probe.at, databaseNow())).orderBy(probe.id)
  t.same(past.map((row) => row.id), [1, 4, 5], 'lt(column, databaseNow())')
  const ahead = await db.select({ id: probe.id }).from(probe).where(gt(probe.at, databaseNowMinus({ days: 1 }))).orderBy(probe.id)
  t.same(ahead.map((row) => row.id), [1, 2, 3, 5], 'gt(column, databaseNowMinus(…))')

  // read back, it is a Date like any timestamp column: the database's now(), to the millisecond
  const [read, nowMs] = await db.transaction(async (tx) => {
    const [row] = await tx.insert(probe).values({ id: 6, at: databaseNow() }).returning()
    const [{ ms }] = await rows(tx, sql<{ ms: number }>`select floor(extract(epoch from now()) * 1000)::float8 as ms`)
    return [row, Number(ms)] as const
  })
  t.ok(read.at instanceof Date, 'read back as a Date')
  t.equal(read.at?.getTime(), nowMs, "the database's now()")
})
