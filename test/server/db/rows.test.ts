import t from 'tap'
import { sql } from 'drizzle-orm'
import { openDatabase } from '../../../server/db/client.ts'
import { namedRows, rows } from '../../../server/db/rows.ts'
import { SERVER_URL } from '../../helper.ts'

/** Both engines: the embedded one, and the PostgreSQL server when the run has one. */
const engines = [{ name: 'PGlite', databaseUrl: null }, ...(SERVER_URL === null ? [] : [{ name: 'PostgreSQL', databaseUrl: SERVER_URL }])]

/** A query with a parameter, json, a timestamp, an interval and a timestamp array: what the drivers could answer differently. */
const probe = (n: number) => sql<{ n: number, doc: { n: number }, at: string, span: string, ats: string }>`select ${n}::int as n,
  json_build_object('n', ${n}::int) as doc, '2026-11-29 10:00:00+00'::timestamptz as at, interval '90 seconds' as span,
  array['2026-11-29 10:00:00+00'::timestamptz] as ats`

for (const { name, databaseUrl } of engines) {
  t.test(`${name}: namedRows answers what rows answers`, async (t) => {
    const database = await openDatabase({ databaseUrl, dataDir: null })
    t.teardown(() => database.close())
    const { db } = database
    for (const n of [1, 2]) {
      const named = await namedRows(db, 'rows_probe', probe(n))
      const plain = await rows(db, probe(n))
      // PGlite answers json as text where node-postgres parses it; each driver answers the same both ways
      t.same(named, plain, `call ${n}`)
      t.equal(typeof named[0].at, 'string', 'times stay the text the server sent, as drizzle leaves them')
    }
    await db.transaction(async (tx) => {
      t.same(await namedRows(tx, 'rows_probe', probe(3)), await rows(tx, probe(3)), 'in a transaction too')
    })
  })
}

if (SERVER_URL !== null) {
  t.test('PostgreSQL: the statement is named on the connection, once, and its text changing gets another name', async (t) => {
    const database = await openDatabase({ databaseUrl: SERVER_URL, dataDir: null })
    t.teardown(() => database.close())
    const prepared = await database.db.transaction(async (tx) => {
      for (let i = 0; i < 3; i++) await namedRows(tx, 'rows_probe', probe(i))
      await namedRows(tx, 'rows_probe', sql`select ${1}::int as n, 'other text' as t`)
      return await rows(tx, sql<{ name: string }>`select name from pg_prepared_statements where name like 'rows_probe_%' order by prepare_time`)
    })
    t.equal(prepared.length, 2, 'one statement per text on this connection, however many calls')
    t.match(prepared[0].name, /^rows_probe_[0-9a-f]{12}$/)
  })

  t.test('PostgreSQL behind a transaction pooler (a listen URL of its own): nothing is named', async (t) => {
    const url = SERVER_URL as string
    const database = await openDatabase({ databaseUrl: url, listenUrl: `${url}${url.includes('?') ? '&' : '?'}application_name=listen`, dataDir: null })
    t.teardown(() => database.close())
    const prepared = await database.db.transaction(async (tx) => {
      await namedRows(tx, 'rows_unnamed', probe(1))
      return await rows(tx, sql<{ name: string }>`select name from pg_prepared_statements where name like 'rows_unnamed_%'`)
    })
    t.same(prepared, [])
  })
}
