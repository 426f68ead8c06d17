import t from 'tap'
import { eq } from 'drizzle-orm'
import { emitEvent, EVENT_SCOPES, OUTBOX_CHANNEL } from '../../server/events.ts'
import { outboxEvents } from '../../server/db/schema/index.ts'
import { build } from '../helper.ts'

t.test('emitEvent', async (t) => {
  // a web process: no dispatcher takes the events, so the outbox row is seen as written
  const app = await build(t, { env: { PROCESS_ROLE: 'web' } })

  t.test('writes the event with the change and wakes listeners after commit', async (t) => {
    let wake: (payload: string) => void = () => {}
    const woken = new Promise<string>((resolve) => { wake = resolve })
    await app.database.listen(OUTBOX_CHANNEL, (payload) => wake(payload))
    const id = await app.db.transaction(async (tx) => emitEvent(tx, { businessId: 'biz_a', event: 'product.created', data: { id: 'prod_1' } }))
    const [row] = await app.db.select().from(outboxEvents).where(eq(outboxEvents.id, id))
    t.match(row, { businessId: 'biz_a', event: 'product.created', data: { id: 'prod_1' }, dispatchedAt: null })
    t.equal(await woken, 'biz_a')
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
