import t from 'tap'
import { sql } from 'drizzle-orm'
import { openDatabase } from '../../../server/db/client.ts'
import { afterCommit, commitsAt } from '../../../server/db/after-commit.ts'
import { SERVER_URL } from '../../helper.ts'

/** Both engines: the embedded one, and the PostgreSQL server when the run has one. */
const engines = [{ name: 'PGlite', databaseUrl: null }, ...(SERVER_URL === null ? [] : [{ name: 'PostgreSQL', databaseUrl: SERVER_URL }])]

for (const { name, databaseUrl } of engines) {
  t.test(`${name}: work asked for in a transaction runs once it has committed, once per key, never after a rollback`, async (t) => {
    const database = await openDatabase({ databaseUrl, dataDir: null })
    t.teardown(() => database.close())
    const { db } = database
    const table = `after_commit_${process.pid}_${name.toLowerCase()}`
    await db.execute(sql.raw(`create table if not exists ${table} (id int primary key)`))
    t.teardown(() => db.execute(sql.raw(`drop table if exists ${table}`)))
    t.equal(commitsAt(db), 'statement', 'the database itself: each statement commits as it ends')
    t.equal(commitsAt({} as typeof db), 'unknown', 'a transaction begun elsewhere is not known')

    // the callback sees the row from another session's point of view: committed
    const seen: Array<{ key: string, visible: number }> = []
    const see = (key: string) => (after: typeof db) => {
      void after.execute(sql.raw(`select count(*)::int as n from ${table}`)).then((result) => {
        seen.push({ key, visible: Number((result as unknown as { rows: Array<{ n: number }> }).rows[0].n) })
      })
    }
    let ranInside = false
    await db.transaction(async (tx) => {
      t.equal(commitsAt(tx), 'transaction')
      await tx.execute(sql.raw(`insert into ${table} values (1)`))
      t.ok(afterCommit(tx, 'wake', see('wake')))
      t.ok(afterCommit(tx, 'wake', () => { ranInside = true }), 'asked again with the same key')
      // a savepoint belongs to the outermost transaction
      await tx.transaction(async (inner) => {
        t.equal(commitsAt(inner), 'transaction')
        await inner.execute(sql.raw(`insert into ${table} values (2)`))
        t.ok(afterCommit(inner, 'other', see('other')))
      })
      t.same(seen, [], 'nothing runs before the commit')
    })
    await new Promise<void>((resolve) => { const check = () => seen.length === 2 ? resolve() : setImmediate(check); check() })
    t.same(seen.sort((a, b) => a.key.localeCompare(b.key)), [{ key: 'other', visible: 2 }, { key: 'wake', visible: 2 }], 'after the commit: both rows visible, each key once')
    t.notOk(ranInside, 'the second ask with a key already queued did not replace the first')

    let rolledBack = false
    await t.rejects(db.transaction(async (tx) => {
      afterCommit(tx, 'wake', () => { rolledBack = true })
      throw new Error('the change failed')
    }))
    t.notOk(rolledBack, 'a rollback runs nothing')
  })
}
