import t from 'tap'
import { build } from '../../helper.ts'
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
  t.match(body, { queued: 1000, remaining: total - 1000, nextSince: String }, 'capped at 1 000, the rest counted')
  await target.waitFor(1000, 20_000)
  await app.webhookDelivery.idle()
  t.equal(new Set(target.received.map((r) => r.headers['x-service-event-id'])).size, 1000, 'the oldest 1 000, each once')

  const second = await replay(body.nextSince)
  t.same(second.json(), { queued: total - 1000, remaining: 0, nextSince: null }, 'the next call from nextSince takes the rest')
  await target.waitFor(total, 20_000)
  await app.webhookDelivery.idle()
  t.equal(new Set(target.received.map((r) => r.headers['x-service-event-id'])).size, total, 'every delivery replayed exactly once across the two calls')
})
