import t from 'tap'
import type { Db } from '../../../server/db/client.ts'
import { systemClock } from '../../../server/clock.ts'
import { createScopeUses } from '../../../plugins/app-checks/scope-uses.ts'
import { build } from '../../helper.ts'

/**
 * The database, with the first insert held until `release`: a flush of the timer's that is still writing
 * when a run asks which scopes were exercised (on PostgreSQL the two go out on different connections).
 */
function holdingFirstInsert (db: Db): { db: Db, release: () => void } {
  let release = () => {}
  const gate = new Promise<void>((resolve) => { release = resolve })
  let held = false
  const proxy = new Proxy(db, {
    get (target, property, receiver) {
      if (property !== 'insert' || held) return Reflect.get(target, property, receiver)
      held = true
      return (table: Parameters<Db['insert']>[0]) => ({
        values: (values: any) => ({
          onConflictDoUpdate: (conflict: any) => gate.then(async () => await target.insert(table).values(values).onConflictDoUpdate(conflict))
        })
      })
    }
  })
  return { db: proxy, release }
}

t.test('scopes.used sees a scope whose write the periodic flush has begun but not finished', async (t) => {
  const app = await build(t)
  const { db, release } = holdingFirstInsert(app.db)
  const uses = createScopeUses(db, systemClock)
  uses.record('inst_scope_race', 'read_business')
  const timerFlush = uses.flush()
  let answered: string[] | null = null
  const asked = uses.exercised('inst_scope_race').then((scopes) => { answered = scopes })
  // the question waits for the write in flight: nothing is answered while it is held
  await new Promise((resolve) => setImmediate(resolve))
  t.equal(answered, null, 'no answer while the write is held')
  release()
  await Promise.all([timerFlush, asked])
  t.same(answered, ['read_business'], 'the answer includes the scope that was being written')
})

t.test('a failed write is its own caller\'s: later flushes still write', async (t) => {
  const app = await build(t)
  let failures = 1
  const failingOnce = new Proxy(app.db, {
    get (target, property, receiver) {
      if (property === 'insert' && failures > 0) {
        failures--
        return () => ({ values: () => ({ onConflictDoUpdate: async () => { throw new Error('connection lost') } }) })
      }
      return Reflect.get(target, property, receiver)
    }
  })
  const uses = createScopeUses(failingOnce, systemClock)
  uses.record('inst_scope_fail', 'read_orders')
  await t.rejects(uses.flush(), /connection lost/, 'the failed flush reports it')
  uses.record('inst_scope_fail', 'read_products')
  t.same(await uses.exercised('inst_scope_fail'), ['read_products'], 'the next write goes through')
})
