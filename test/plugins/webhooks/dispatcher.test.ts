import t from 'tap'
import { eq, sql } from 'drizzle-orm'
import { dispatchBatch } from '../../../plugins/webhooks/dispatcher.ts'
import { outboxEvents, webhookAttempts, webhookDeliveries } from '../../../server/db/schema/index.ts'
import { build } from '../../helper.ts'
import { installApp, placeOrder, receiver, registerWebhook } from './helpers.ts'

// a web process dispatches nothing by itself, so the test drives the dispatcher and the sweep by hand
const WEB = { env: { PROCESS_ROLE: 'web' } }

t.test('dispatch writes each delivery already claimed, with what its first attempt needs', async (t) => {
  const app = await build(t, WEB)
  const sink = await receiver(t)
  const installed = await installApp(app)
  const webhook = await registerWebhook(app, installed, sink.url, ['order.created'])
  await placeOrder(app, installed.businessId)

  const { items } = await dispatchBatch(app.db, 60_000)
  const [item] = items.filter((i) => i.claimed?.webhookId === webhook.id)
  t.ok(item, 'a delivery for the registration')
  t.match(item.claimed, { event: 'order.created', businessId: installed.businessId, url: sink.url, isActive: true, attempts: 1, cycleAttempts: 1, secretEncrypted: String })
  const [row] = await app.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.id, item.id))
  t.match(row, { status: 'PENDING', attempts: 1, cycleAttempts: 1 })
  t.ok((row.lockedUntil as Date).getTime() > Date.now() + 50_000, 'leased to this process')

  t.same((await dispatchBatch(app.db, 60_000)).items, [], 'nothing left to dispatch')
  await app.db.update(outboxEvents).set({ dispatchedAt: null }).where(eq(outboxEvents.businessId, installed.businessId))
  t.same((await dispatchBatch(app.db, 60_000)).items, [], 'dispatching the same events again writes no second delivery')
  t.equal(sink.received.length, 0, 'nothing sent yet')

  // the process that dispatched died before attempting: once the lease has run out, the sweep takes over
  await app.db.update(webhookDeliveries).set({ lockedUntil: sql`now() - interval '1 second'` as unknown as Date, nextAttemptAt: sql`now() - interval '1 minute'` as unknown as Date })
    .where(eq(webhookDeliveries.id, item.id))
  await app.webhookDelivery.sweep()
  const [got] = await sink.waitFor(1)
  t.equal(got.headers['x-service-event-id'], item.id)
  await app.webhookDelivery.queue.idle()
  const [done] = await app.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.id, item.id))
  t.match(done, { status: 'SUCCEEDED', attempts: 2 }, 'the claimed attempt that never went out still counts')
  const log = await app.db.select().from(webhookAttempts).where(eq(webhookAttempts.deliveryId, item.id))
  t.same(log.map((a) => [a.attempt, a.statusCode]), [[2, 200]], 'the log holds the attempt that was made')
})
