import t from 'tap'
import { sql } from 'drizzle-orm'
import { PGlite, type QueryOptions } from '@electric-sql/pglite'
import { openDatabase } from '../../../server/db/client.ts'
import { rows } from '../../../server/db/rows.ts'

t.test('PGlite: dates stay text for drizzle without a parsers copy per query, and are Dates for executeSql (pg-boss)', async (t) => {
  // what reaches PGlite's own query: the options of every call
  const seen: Array<QueryOptions | undefined> = []
  const query = PGlite.prototype.query
  PGlite.prototype.query = async function (this: PGlite, ...args: Parameters<PGlite['query']>) {
    seen.push(args[2])
    return await query.apply(this, args)
  } as PGlite['query']
  t.teardown(() => { PGlite.prototype.query = query })
  const database = await openDatabase({ databaseUrl: null, dataDir: null })
  t.teardown(() => database.close())
  const { db } = database

  const probe = sql<{ at: string, span: string, day: string, ats: string }>`select '2026-11-29 10:00:00.123456+00'::timestamptz as at,
    interval '90 seconds' as span, '2026-11-29'::date as day, array['2026-11-29 10:00:00+00'::timestamptz] as ats`
  seen.length = 0
  const [row] = await rows(db, probe)
  t.same(row, { at: '2026-11-29 10:00:00.123456+00', span: '00:01:30', day: '2026-11-29', ats: '{"2026-11-29 10:00:00+00"}' }, 'the server\'s text, microseconds kept')
  t.equal(seen.length, 1)
  t.equal(seen[0]?.parsers, undefined, 'drizzle\'s parsers are left out: the instance already answers those types as text')
  t.equal(seen[0]?.rowMode, 'object', 'its other options are kept')

  await db.transaction(async (tx) => {
    seen.length = 0
    const [inside] = await rows(tx, probe)
    t.equal(inside.at, '2026-11-29 10:00:00.123456+00', 'in a transaction too')
    t.equal(seen.filter((options) => options?.parsers !== undefined).length, 0)
  })

  const [viaSql] = (await database.executeSql('select $1::timestamptz as at', ['2026-11-29 10:00:00+00'])).rows as Array<{ at: unknown }>
  t.ok(viaSql.at instanceof Date, 'executeSql answers Date objects, as node-postgres does')
  t.equal((viaSql.at as Date).toISOString(), '2026-11-29T10:00:00.000Z')
  const [script] = (await database.executeSql("select '2026-11-29 10:00:00+00'::timestamptz as at")).rows as Array<{ at: unknown }>
  t.ok(script.at instanceof Date, 'a script without values too')

  const client = (db as unknown as { $client: PGlite }).$client
  const [own] = (await client.query<{ n: unknown }>('select 41 + 1 as n', [], { parsers: { 23: (value: string) => `n=${value}` } })).rows
  t.equal(own.n, 'n=42', 'a query bringing a parser of its own keeps it')
})
