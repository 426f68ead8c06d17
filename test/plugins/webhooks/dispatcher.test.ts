import t from 'tap'
import { and, eq, sql } from 'drizzle-orm'
import { DISPATCH_BATCH, deliveryId, dispatchBatch } from '../../../plugins/webhooks/dispatcher.ts'
import { MAX_QUEUED } from '../../../plugins/webhooks/delivery-start.ts'
import { emitEvent } from '../../../server/events.ts'
import type { AttemptItem } from '../../../plugins/webhooks/attempt-queue.ts'
import { outboxEvents, webhookAttempts, webhookDeliveries } from '../../../server/db/schema/index.ts'
import { build, until, portsOf } from '../../helper.ts'
import type { Test } from 'tap'
import { installApp, placeOrder, receiver, registerWebhook, type Answer } from './helpers.ts'
import { countStatements, statementKind, type Statement } from '../../../bench/statements.ts'

// before any database opens: it wraps the drivers
const statements = countStatements()
/**
 * The statements of the delivery path: the console's live tail and the analytics counters, flushed on their own timers,
 * and the writer's wake-up of the dispatchers, sent after its commit, apart.
 */
const deliveryPath = (sent: Statement[]) => sent.map(statementKind).filter((kind) => kind !== 'live tail' && kind !== 'counters' && kind !== 'outbox wake')

// a web process dispatches nothing by itself, so the test drives the dispatcher by hand
const WEB = { env: { PROCESS_ROLE: 'web' } }

t.test('dispatch leases the event and plans each first attempt; its outcome writes the delivery, then the event is stamped dispatched', async (t) => {
  const app = await build(t, WEB)
  const sink = await receiver(t)
  const installed = await installApp(app)
  const webhook = await registerWebhook(app, installed, sink.url, ['order.created'])
  await placeOrder(app, installed.businessId)
  const [event] = await app.db.select().from(outboxEvents).where(and(eq(outboxEvents.businessId, installed.businessId), eq(outboxEvents.event, 'order.created')))
  const eventRow = async () => (await app.db.select().from(outboxEvents).where(eq(outboxEvents.id, event.id)))[0]
  const deliveriesOf = async () => await app.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.webhookId, webhook.id))

  const { items } = await dispatchBatch(app.db, 60_000)
  const [item] = items.filter((i) => i.claimed?.webhookId === webhook.id)
  t.ok(item, 'a first attempt for the registration')
  t.equal(item.fresh, event.id, 'not written yet: its event is named')
  t.equal(item.id, deliveryId(event.id, webhook.id), 'the delivery id follows from the event and the registration')
  t.match(item.claimed, { event: 'order.created', businessId: installed.businessId, url: sink.url, isActive: true, attempts: 1, cycleAttempts: 1, secretEncrypted: String })
  t.same(await deliveriesOf(), [], 'nothing is written before the attempt')
  const leased = await eventRow()
  t.equal(leased.dispatchedAt, null)
  t.ok((leased.leaseUntil as Date).getTime() > Date.now() + 50_000, 'the event is leased to this dispatcher')
  t.same((await dispatchBatch(app.db, 60_000)).items, [], 'no other dispatch takes a leased event')

  // the dispatcher died before attempting: once the lease has run out, the event is dispatched again, under the same id
  await app.db.update(outboxEvents).set({ leaseUntil: sql`now() - interval '1 second'` as unknown as Date }).where(eq(outboxEvents.id, event.id))
  const again = (await dispatchBatch(app.db, 60_000)).items.filter((i) => i.claimed?.webhookId === webhook.id)
  t.same(again.map((i) => i.id), [item.id], 'the same delivery id again')

  portsOf(app).webhooks.delivery.queue.push(portsOf(app).webhooks.delivery.engine.track(again))
  const [got] = await sink.waitFor(1)
  t.equal(got.headers['x-service-event-id'], item.id)
  await portsOf(app).webhooks.delivery.settled()
  const [done] = await deliveriesOf()
  t.match(done, { id: item.id, eventId: event.id, status: 'SUCCEEDED', attempts: 1, cycleAttempts: 1, lastStatusCode: 200, data: event.data })
  t.same(done.occurredAt, event.createdAt, 'the envelope time is the event time')
  const log = await app.db.select().from(webhookAttempts).where(eq(webhookAttempts.deliveryId, item.id))
  t.same(log.map((a) => [a.attempt, a.statusCode]), [[1, 200]], 'the attempt is logged with the delivery')
  await until(eventRow, (row) => row.dispatchedAt !== null)
  t.match(await eventRow(), { dispatchedAt: Date, leaseUntil: null }, 'every delivery recorded: the event is stamped dispatched')

  // a crash after the records but before the stamp: the event is taken again, and nothing recorded goes out twice
  await app.db.update(outboxEvents).set({ dispatchedAt: null, leaseUntil: sql`now() - interval '1 second'` as unknown as Date }).where(eq(outboxEvents.id, event.id))
  t.same((await dispatchBatch(app.db, 60_000)).items.filter((i) => i.claimed?.webhookId === webhook.id), [], 'the recorded delivery is not sent again')
  t.match(await eventRow(), { dispatchedAt: Date, leaseUntil: null }, 'and the event is stamped dispatched')
  t.equal(sink.received.length, 1)
})

/** A web app with one registration for order.created at a receiver answering `answer`, one order placed and dispatched by hand. */
async function oneOrderDispatched (t: Test, answer: () => Answer) {
  const app = await build(t, WEB)
  const sink = await receiver(t, answer)
  const installed = await installApp(app)
  const webhook = await registerWebhook(app, installed, sink.url, ['order.created'])
  await placeOrder(app, installed.businessId)
  const ofWebhook = (items: AttemptItem[]) => items.filter((i) => i.claimed?.webhookId === webhook.id)
  const items = portsOf(app).webhooks.delivery.engine.track(ofWebhook((await dispatchBatch(app.db, 60_000)).items))
  return { app, sink, webhook, items, ofWebhook }
}

t.test('a failed first attempt writes the delivery pending its retry, with the attempt logged', async (t) => {
  const { app, webhook, items } = await oneOrderDispatched(t, () => ({ status: 500 }))
  portsOf(app).webhooks.delivery.queue.push(items)
  await portsOf(app).webhooks.delivery.settled()
  const [row] = await app.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.webhookId, webhook.id))
  t.match(row, { id: items[0].id, status: 'PENDING', attempts: 1, cycleAttempts: 1, lastStatusCode: 500, lockedUntil: null })
  t.ok((row.nextAttemptAt as Date).getTime() > Date.now(), 'its retry is scheduled')
  const log = await app.db.select().from(webhookAttempts).where(eq(webhookAttempts.deliveryId, row.id))
  t.same(log.map((a) => [a.attempt, a.statusCode, a.nextRetryAt instanceof Date]), [[1, 500, true]])
})

t.test('closing lets the first attempts under way finish, writes their outcomes and stamps their events', async (t) => {
  const { app, sink, webhook, items } = await oneOrderDispatched(t, () => ({ delayMs: 200 }))
  portsOf(app).webhooks.delivery.queue.push(items)
  await sink.waitFor(1)
  await portsOf(app).webhooks.delivery.close()
  const [row] = await app.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.webhookId, webhook.id))
  t.match(row, { id: items[0].id, status: 'SUCCEEDED' }, 'the outcome is written before close returns')
  const [event] = await app.db.select().from(outboxEvents).where(eq(outboxEvents.id, items[0].fresh as string))
  t.match(event, { dispatchedAt: Date, leaseUntil: null }, 'and its event stamped')
})

t.test('an event taken again while its first attempt is still under way here adds no second copy', async (t) => {
  const { app, sink, items: first, ofWebhook } = await oneOrderDispatched(t, () => ({ delayMs: 300 }))
  t.equal(first.length, 1)
  portsOf(app).webhooks.delivery.queue.push(first)
  await sink.waitFor(1)

  await app.db.update(outboxEvents).set({ leaseUntil: sql`now() - interval '1 second'` as unknown as Date }).where(eq(outboxEvents.id, first[0].fresh as string))
  const again = ofWebhook((await dispatchBatch(app.db, 60_000)).items)
  t.same(again.map((i) => i.id), [first[0].id], 'the lease ran out: dispatched again, under the same id')
  t.same(portsOf(app).webhooks.delivery.engine.track(again), [], 'still under way here: not queued a second time')
  await portsOf(app).webhooks.delivery.settled()
  t.equal(sink.received.length, 1, 'sent once')
})

t.test('an event whose delivery could not be written is not stamped, though its other deliveries were', async (t) => {
  const app = await build(t, WEB)
  const fast = await receiver(t)
  const slow = await receiver(t, () => ({ delayMs: 400 }))
  const installed = await installApp(app)
  const quick = await registerWebhook(app, installed, fast.url, ['order.created'])
  const late = await registerWebhook(app, installed, slow.url, ['order.created'])
  await placeOrder(app, installed.businessId)
  const items = portsOf(app).webhooks.delivery.engine.track((await dispatchBatch(app.db, 60_000)).items.filter((i) => [quick.id, late.id].includes(i.claimed?.webhookId ?? '')))
  t.equal(items.length, 2)
  const eventId = items[0].fresh as string
  portsOf(app).webhooks.delivery.queue.push(items)
  await slow.waitFor(1)
  await until(async () => await app.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.webhookId, quick.id)), (rows) => rows.length > 0)
  // the database refuses the slow delivery's row when its outcome is written (and only that row)
  await app.database.executeSql(`create function refuse_late () returns trigger language plpgsql as $$
    begin if new.webhook_id = '${late.id}' then raise exception 'refused for the test'; end if; return new; end $$`)
  await app.database.executeSql('create trigger refuse_late before insert on webhook_deliveries for each row execute function refuse_late()')
  await portsOf(app).webhooks.delivery.settled()
  await portsOf(app).webhooks.delivery.engine.drain()
  await app.database.executeSql('drop trigger refuse_late on webhook_deliveries')
  const [event] = await app.db.select().from(outboxEvents).where(eq(outboxEvents.id, eventId))
  t.equal(event.dispatchedAt, null, 'not stamped: one delivery is not written')
  t.same((await app.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.webhookId, late.id))), [], 'the slow one is not written')

  await app.db.update(outboxEvents).set({ leaseUntil: sql`now() - interval '1 second'` as unknown as Date }).where(eq(outboxEvents.id, eventId))
  const again = (await dispatchBatch(app.db, 60_000)).items.filter((i) => [quick.id, late.id].includes(i.claimed?.webhookId ?? ''))
  t.same(again.map((i) => i.claimed?.webhookId), [late.id], 'dispatched again, to the registration whose delivery is not written only')
  portsOf(app).webhooks.delivery.queue.push(portsOf(app).webhooks.delivery.engine.track(again))
  await portsOf(app).webhooks.delivery.settled()
  const [stamped] = await until(async () => await app.db.select().from(outboxEvents).where(eq(outboxEvents.id, eventId)), ([row]) => row.dispatchedAt !== null)
  t.match(stamped, { dispatchedAt: Date }, 'then stamped')
  t.equal(slow.received.length, 2, 'the slow receiver got it again')
  t.equal(new Set(slow.received.map((r) => r.headers['x-service-event-id'])).size, 1, 'with the same event id')
  t.equal(fast.received.length, 1)
})

t.test('a full queue takes no more events: they wait in the outbox, unleased, until it is half empty', async (t) => {
  // a loaded machine is slower, not wrong: no attempt may time out into a retry (a web process runs none)
  const app = await build(t, { env: { ...WEB.env, WEBHOOK_TIMEOUT_MS: '120000' } })
  let held = true
  const sink = await receiver(t, () => ({ delayMs: held ? 2000 : 0 }))
  const installed = await installApp(app)
  for (let r = 0; r < 8; r++) await registerWebhook(app, installed, `${sink.url}?r=${r}`, ['order.created'])
  const events = 1000
  await app.db.transaction(async (tx) => {
    for (let n = 0; n < events; n++) await emitEvent(tx, { businessId: installed.businessId, event: 'order.created', data: { n } })
  })
  const waiting = async () => (await app.database.executeSql(
    'select count(*)::int as n from outbox_events where business_id = $1 and dispatched_at is null and lease_until is null', [installed.businessId])).rows[0].n as number

  await portsOf(app).webhooks.delivery.dispatch()
  t.ok(portsOf(app).webhooks.delivery.queue.size >= MAX_QUEUED, `the queue is full (${portsOf(app).webhooks.delivery.queue.size})`)
  t.ok(portsOf(app).webhooks.delivery.queue.size < MAX_QUEUED + DISPATCH_BATCH * 8, 'no batch beyond the one that filled it')
  const left = await waiting()
  t.ok(left > 0, `events wait in the outbox, unleased (${left})`)
  t.equal(left * 8 + portsOf(app).webhooks.delivery.queue.size, events * 8, 'every other delivery is queued or under way')

  held = false
  // a bound against a hang, not a stopwatch: 8 000 deliveries on a loaded machine
  await portsOf(app).webhooks.delivery.idle(600_000)
  t.equal(await waiting(), 0)
  t.equal(new Set(sink.received.map((r) => r.headers['x-service-event-id'])).size, events * 8, 'every delivery arrived')
  const [{ n }] = (await app.database.executeSql("select count(*)::int as n from webhook_deliveries where business_id = $1 and status = 'SUCCEEDED'", [installed.businessId])).rows
  t.equal(n, events * 8, 'and is written')
})

t.test('a lone event at one registration costs two statements after its commit: the fan-out, and the write that records its delivery and stamps it', async (t) => {
  const app = await build(t, WEB)
  const sink = await receiver(t)
  const installed = await installApp(app)
  // product events are shaped for the installation's pinned version with the business's currency: the fan-out carries it
  const webhook = await registerWebhook(app, installed, sink.url, ['product.updated'])
  const deliver = async (n: number) => {
    const eventId = await app.db.transaction(async (tx) => await emitEvent(tx, { businessId: installed.businessId, event: 'product.updated', data: { id: `prd_${n}`, price: 1500 } }))
    statements.take()
    await portsOf(app).webhooks.delivery.dispatch()
    await sink.waitFor(n)
    await portsOf(app).webhooks.delivery.settled()
    return { eventId, kinds: deliveryPath(statements.take()) }
  }
  // the first attempt to an app also looks for its developer's `listen` session once
  await deliver(1)
  const { eventId, kinds } = await deliver(2)
  t.same(kinds, ['dispatch fan-out', 'success write'], 'no read of the business, no stamp of its own')
  const [event] = await app.db.select().from(outboxEvents).where(eq(outboxEvents.id, eventId))
  t.match(event, { dispatchedAt: Date, leaseUntil: null }, 'stamped by the write that recorded its delivery')
  const [row] = await app.db.select().from(webhookDeliveries).where(and(eq(webhookDeliveries.webhookId, webhook.id), eq(webhookDeliveries.eventId, eventId)))
  t.match(row, { status: 'SUCCEEDED', attempts: 1 })
})

t.test('the write of an event\'s last delivery stamps it only under the lease it was dispatched with; taken again meanwhile, a later statement stamps it', async (t) => {
  const { app, sink, items } = await oneOrderDispatched(t, () => ({ delayMs: 300 }))
  const eventId = items[0].fresh as string
  portsOf(app).webhooks.delivery.queue.push(items)
  await sink.waitFor(1)
  // another dispatcher took the event again (its lease had run out): the lease is not the one this process holds
  await app.db.update(outboxEvents).set({ leaseUntil: sql`now() + interval '1 hour'` as unknown as Date }).where(eq(outboxEvents.id, eventId))
  statements.take()
  await portsOf(app).webhooks.delivery.settled()
  t.same(deliveryPath(statements.take()), ['success write', 'event stamp'], 'recorded, then stamped apart')
  const [event] = await app.db.select().from(outboxEvents).where(eq(outboxEvents.id, eventId))
  t.match(event, { dispatchedAt: Date, leaseUntil: null })
})

t.test('a lone event whose delivery could not be written is not stamped: its write and its stamp are one statement', async (t) => {
  const { app, sink, webhook, items, ofWebhook } = await oneOrderDispatched(t, () => ({ delayMs: 300 }))
  const eventId = items[0].fresh as string
  portsOf(app).webhooks.delivery.queue.push(items)
  await sink.waitFor(1)
  await app.database.executeSql(`create function refuse_write () returns trigger language plpgsql as $$
    begin if new.webhook_id = '${webhook.id}' then raise exception 'refused for the test'; end if; return new; end $$`)
  await app.database.executeSql('create trigger refuse_write before insert on webhook_attempts for each row execute function refuse_write()')
  await portsOf(app).webhooks.delivery.settled()
  await app.database.executeSql('drop trigger refuse_write on webhook_attempts')
  const [event] = await app.db.select().from(outboxEvents).where(eq(outboxEvents.id, eventId))
  t.equal(event.dispatchedAt, null, 'not stamped')
  t.same(await app.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.webhookId, webhook.id)), [], 'nothing recorded')

  await app.db.update(outboxEvents).set({ leaseUntil: sql`now() - interval '1 second'` as unknown as Date }).where(eq(outboxEvents.id, eventId))
  const again = ofWebhook((await dispatchBatch(app.db, 60_000)).items)
  t.same(again.map((i) => i.id), [items[0].id], 'dispatched again under the same delivery id')
  portsOf(app).webhooks.delivery.queue.push(portsOf(app).webhooks.delivery.engine.track(again))
  await portsOf(app).webhooks.delivery.settled()
  const [stamped] = await app.db.select().from(outboxEvents).where(eq(outboxEvents.id, eventId))
  t.match(stamped, { dispatchedAt: Date }, 'then stamped with its record')
  t.equal(new Set(sink.received.map((r) => r.headers['x-service-event-id'])).size, 1, 'sent twice, under one id')
})
