import t from 'tap'
import { build, portsOf } from '../../helper.ts'
import { installApp, receiver, registerWebhook } from './helpers.ts'

t.test('POST /webhooks/:id/replay queues at most 1 000 per call and says where to go on', async (t) => {
  const app = await build(t)
  const target = await receiver(t)
  const installed = await installApp(app)
  const webhook = await registerWebhook(app, installed, target.url)
  const total = 1205
  // a delivered history, one delivery a second for the last ~20 minutes (written directly: the set-up, not the subject)
  await app.database.executeSql(`insert into webhook_deliveries
      (id, webhook_id, installation_id, app_id, business_id, event, data, status, attempts, cycle_attempts, next_attempt_at, occurred_at, created_at, completed_at)
    select 'dlv_replay_' || g, $1, $2, $3, $4, 'order.created', jsonb_build_object('n', g), 'SUCCEEDED', 1, 1, now(),
      now() - (${total} - g) * interval '1 second', now() - (${total} - g) * interval '1 second', now()
    from generate_series(1, ${total}) as g`, [webhook.id, installed.installationId, installed.appId, installed.businessId])
  const since = new Date(Date.now() - 3600_000).toISOString()
  const replay = async (from: string) => await app.inject({ method: 'POST', url: `/webhooks/${webhook.id}/replay`, headers: installed.auth, payload: { since: from } })

  const first = await replay(since)
  t.equal(first.statusCode, 202)
  const body = first.json()
  t.match(body, { queued: 1000, remaining: total - 1000, remainingExact: true, nextSince: String }, 'capped at 1 000, the rest counted')
  const restarted = async () => (await app.database.executeSql(
    // queued: waiting (PENDING) or already attempted again (a second attempt)
    "select id from webhook_deliveries where webhook_id = $1 and (status = 'PENDING' or attempts > 1) order by created_at", [webhook.id])).rows.map((r) => r.id as string)
  const oldest = Array.from({ length: 1000 }, (_, i) => `dlv_replay_${i + 1}`)
  t.same(await restarted(), oldest, 'the oldest 1 000 were queued, the newer ones left as they were')
  const [{ ms }] = (await app.database.executeSql("select floor(extract(epoch from created_at) * 1000)::float8 as ms from webhook_deliveries where id = 'dlv_replay_1001'")).rows
  t.equal(new Date(body.nextSince).getTime(), ms, 'nextSince is where the first one left was created')
  await target.waitFor(50)
  t.ok(target.received.every((r) => oldest.includes(String(r.headers['x-service-event-id']))), 'what goes out keeps each delivery\'s id')

  const second = await replay(body.nextSince)
  t.same(second.json(), { queued: total - 1000, remaining: 0, remainingExact: true, nextSince: null }, 'the next call from nextSince takes the rest, none twice')
})

t.test('a replay counts at most 10 000 past its own 1 000: a longer log answers a lower bound, never a count of it all', async (t) => {
  const app = await build(t)
  const target = await receiver(t)
  const installed = await installApp(app)
  const webhook = await registerWebhook(app, installed, target.url)
  const history = async (from: number, to: number) => await app.database.executeSql(`insert into webhook_deliveries
      (id, webhook_id, installation_id, app_id, business_id, event, data, status, attempts, cycle_attempts, next_attempt_at, occurred_at, created_at, completed_at)
    select 'dlv_long_' || g, $1, $2, $3, $4, 'order.created', '{}'::jsonb, 'FAILED', 1, 1, now(),
      now() - g * interval '1 millisecond', now() - g * interval '1 millisecond', now()
    from generate_series(${from}, ${to}) as g`, [webhook.id, installed.installationId, installed.appId, installed.businessId])
  const row = await portsOf(app).webhooks.getOfApp(installed.appId, webhook.id)
  const since = new Date(Date.now() - 3600_000).toISOString()
  const dryRun = async () => await portsOf(app).webhooks.replayOn(row, { since }, { dryRun: true })

  await history(1, 11_000)
  t.same(await dryRun(), { queued: 1000, remaining: 10_000, remainingExact: true, nextSince: (await dryRun()).nextSince }, '11 000 matching: exact')
  await history(11_001, 30_000)
  const long = await dryRun()
  t.match(long, { queued: 1000, remaining: 10_000, remainingExact: false, nextSince: String }, '30 000 matching: "more than 10 000", not a count of the whole log')
  const filtered = await portsOf(app).webhooks.replayOn(row, { since, status: 'SUCCEEDED' }, { dryRun: true })
  t.same(filtered, { queued: 0, remaining: 0, remainingExact: true, nextSince: null }, 'the filters still apply')
  t.equal(target.received.length, 0, 'a dry run sends nothing')
})
