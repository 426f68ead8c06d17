import t from 'tap'
import { eq, sql } from 'drizzle-orm'
import { rows } from '../../server/db/rows.ts'
import { emitEvent, EVENT_SCOPES, OUTBOX_CHANNEL } from '../../server/events.ts'
import { outboxEvents } from '../../server/db/schema/index.ts'
import { build, until } from '../helper.ts'

t.test('emitEvent', async (t) => {
  // a web process: no dispatcher takes the events, so the outbox row is seen as written
  const app = await build(t, { env: { PROCESS_ROLE: 'web' } })

  t.test('writes the event with the change and wakes listeners after commit', async (t) => {
    // what a woken dispatcher reads: the event, committed (found by its business, known before it is written)
    let found: (rows: number) => void = () => {}
    const woken = new Promise<number>((resolve) => { found = resolve })
    const unlisten = await app.database.listen(OUTBOX_CHANNEL, () => {
      void app.db.select().from(outboxEvents).where(eq(outboxEvents.businessId, 'biz_a')).then((rows) => { if (rows.length > 0) found(rows.length) })
    })
    t.teardown(unlisten)
    const id = await app.db.transaction(async (tx) => await emitEvent(tx, { businessId: 'biz_a', event: 'product.created', data: { id: 'prod_1' } }))
    const [row] = await app.db.select().from(outboxEvents).where(eq(outboxEvents.id, id))
    t.match(row, { businessId: 'biz_a', event: 'product.created', data: { id: 'prod_1' }, dispatchedAt: null })
    t.equal(await woken, 1, 'a wake-up found the event committed')
  })

  t.test('a burst of commits wakes the listeners a few times, the last wake-up after the last commit; an event outside a transaction wakes them too', async (t) => {
    const wakes: number[] = []
    const unlisten = await app.database.listen(OUTBOX_CHANNEL, () => { wakes.push(performance.now()) })
    t.teardown(unlisten)
    let next = 0
    const events = 200
    await Promise.all(Array.from({ length: 16 }, async () => {
      while (next < events) {
        next++
        await app.db.transaction(async (tx) => { await emitEvent(tx, { businessId: 'biz_c', event: 'product.updated', data: { n: next } }) })
      }
    }))
    const lastCommit = performance.now()
    await until(async () => wakes.filter((at) => at > lastCommit).length, (after) => after > 0)
    t.ok(wakes.length < events, `fewer wake-ups (${wakes.length}) than events (${events})`)
    const before = wakes.length
    await emitEvent(app.db, { businessId: 'biz_c', event: 'product.updated', data: { alone: true } })
    await until(async () => wakes.length, (n) => n > before)
    t.pass('an event in a statement of its own woke them')
  })

  t.test('the outbox keeps room on its pages for the lease and only the indexes its lookups use', async (t) => {
    const [table] = await rows(app.db, sql<{ options: string[] | null }>`select reloptions as options from pg_class where relname = 'outbox_events'`)
    t.same(table.options, ['fillfactor=60'], 'a page keeps 40 % free for the updates of its rows')
    const indexes = await rows(app.db, sql<{ name: string }>`select indexname as name from pg_indexes where tablename = 'outbox_events' order by indexname`)
    t.same(indexes.map((index) => index.name), ['outbox_erasures_idx', 'outbox_events_id_unique', 'outbox_events_pkey', 'outbox_pending_idx'],
      'by id, by seq, the undispatched ones, the waiting erasures')
    // the dispatcher's lease changes no indexed column: the new version stays on the row's page (a HOT update)
    const id = await emitEvent(app.db, { businessId: 'biz_d', event: 'product.updated', data: {} })
    const page = async () => (await rows(app.db, sql<{ page: string }>`select (ctid::text::point)[0]::text as page from outbox_events where id = ${id}`))[0].page
    const before = await page()
    await app.db.execute(sql`update outbox_events set lease_until = now() + interval '1 minute' where id = ${id}`)
    t.equal(await page(), before, 'the leased version is on the same page')
  })

  t.test('writes nothing when the transaction rolls back', async (t) => {
    let id = ''
    await t.rejects(app.db.transaction(async (tx) => {
      id = await emitEvent(tx, { businessId: 'biz_b', event: 'order.created', data: {} })
      throw new Error('the change failed')
    }))
    t.same(await app.db.select().from(outboxEvents).where(eq(outboxEvents.id, id)), [])
  })

  t.test('every catalog event names a known scope or none', async (t) => {
    t.equal(EVENT_SCOPES['business.data_erasure'], null)
    t.equal(EVENT_SCOPES['webhook.test'], null)
    t.equal(EVENT_SCOPES['order.created'], 'read_orders')
    t.equal(EVENT_SCOPES['app_subscription.updated'], null)
    t.equal(EVENT_SCOPES['bulk_export.finished'], null, 'to the app\'s own webhook, like its charges')
    t.equal(Object.keys(EVENT_SCOPES).length, 19)
  })
})
