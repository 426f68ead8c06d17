import t from 'tap'
import { sql } from 'drizzle-orm'
import { hookCalls } from '../../../server/db/schema/index.ts'
import { rows } from '../../../server/db/rows.ts'
import { pruneCalls } from '../../../plugins/checkout-hooks/call-log.ts'
import { testDatabase } from '../../database.ts'

t.test('pruneCalls deletes the calls older than the retention, by the database\'s clock', async (t) => {
  const { db } = await testDatabase(t)
  const call = (id: string) => ({ id, appId: 'app_1', installationId: 'ins_1', businessId: 'biz_1', hookPoint: 'cart.validate', url: 'https://hooks.example.com', success: true, durationMs: 5 })
  await db.insert(hookCalls).values([call('hc_old'), call('hc_edge'), call('hc_new')])
  // ages set by the database itself: 8 days, just under 7 days, now
  await db.execute(sql`update hook_calls set created_at = now() - interval '8 days' where id = 'hc_old'`)
  await db.execute(sql`update hook_calls set created_at = now() - interval '7 days' + interval '1 hour' where id = 'hc_edge'`)
  t.equal(await pruneCalls(db, 7), 1)
  const left = await rows(db, sql<{ id: string }>`select id from hook_calls order by id`)
  t.same(left.map((row) => row.id), ['hc_edge', 'hc_new'])
})
