import t from 'tap'
import { inArray } from 'drizzle-orm'
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { build, portsOf } from '../../helper.ts'
import { newId } from '../../../server/db/ids.ts'
import { installations, outboxEvents, webhookAttempts, webhookDeliveries, hookCalls } from '../../../server/db/schema/index.ts'
import { installApp, placeOrder, receiver, registerWebhook } from './helpers.ts'

t.test('uninstall: no more deliveries; business.data_erasure arrives after the delay', async (t) => {
  const app = await build(t, { env: { DATA_ERASURE_DELAY_SECONDS: '1' } })
  const appSink = await receiver(t)
  const extra = await receiver(t)
  const installed = await installApp(app, { webhookUrl: appSink.url, webhookEvents: ['order.created'] })
  await registerWebhook(app, installed, extra.url)
  await placeOrder(app, installed.businessId)
  await Promise.all([appSink.waitFor(1), extra.waitFor(1)])

  const uninstalled = await app.inject({ method: 'POST', url: `/developer/apps/${installed.appId}/test-uninstall`, headers: installed.developer.auth })
  t.equal(uninstalled.statusCode, 200)
  await placeOrder(app, installed.businessId)
  const [, erasure] = await appSink.waitFor(2)
  t.equal(erasure.headers['x-webhook-event'], 'business.data_erasure')
  t.match(JSON.parse(erasure.body).data, { appId: installed.appId, businessId: installed.businessId, uninstalledAt: String })
  await portsOf(app).webhooks.delivery.idle()
  t.equal(extra.received.length, 1, 'the registration made through the API got nothing after the uninstall')
  t.equal(appSink.received.filter((r) => r.headers['x-webhook-event'] === 'order.created').length, 1, 'nor the app webhook')
})

t.test('GET /developer/apps/:appId/analytics (counters backfilled from known logs), deliveries and hook-calls', async (t) => {
  const app = await build(t)
  const installed = await installApp(app)
  const day = (n: number) => new Date(Date.now() - n * 86_400_000)
  const base = { appId: installed.appId, webhookSecretEncrypted: 'x', grantedScopes: [], installedBy: installed.developer.userId }
  // three production installs (one gone), and the test install that must not count
  await app.db.insert(installations).values([
    { ...base, id: newId('inst'), businessId: 'biz_a', accessTokenHash: newId('h'), installedAt: day(3) },
    { ...base, id: newId('inst'), businessId: 'biz_b', accessTokenHash: newId('h'), installedAt: day(3) },
    { ...base, id: 'inst_gone', businessId: 'biz_c', accessTokenHash: newId('h'), installedAt: day(10), uninstalledAt: day(1) }
  ])
  const delivery = (id: string, status: 'SUCCEEDED' | 'FAILED', installationId: string) => ({
    id, webhookId: 'wh_x', installationId, appId: installed.appId, businessId: 'biz_c', eventId: newId('evt'), event: 'order.created', data: {}, status, attempts: 1, completedAt: day(1), createdAt: day(1)
  })
  await app.db.insert(webhookDeliveries).values([
    delivery('dlv_1', 'SUCCEEDED', 'inst_gone'), delivery('dlv_2', 'SUCCEEDED', 'inst_gone'), delivery('dlv_3', 'SUCCEEDED', 'inst_gone'),
    delivery('dlv_4', 'FAILED', 'inst_gone'), delivery('dlv_test', 'FAILED', installed.installationId)
  ])
  await app.db.insert(webhookAttempts).values([
    { id: 'att_1', deliveryId: 'dlv_1', attempt: 1, statusCode: 200, durationMs: 100, createdAt: day(1) },
    { id: 'att_2', deliveryId: 'dlv_4', attempt: 1, statusCode: 500, durationMs: 300, createdAt: day(1) },
    { id: 'att_3', deliveryId: 'dlv_test', attempt: 1, statusCode: 500, durationMs: 9000, createdAt: day(1) }
  ])
  await app.db.insert(hookCalls).values([
    { id: 'hc_1', appId: installed.appId, installationId: 'inst_gone', businessId: 'biz_c', hookPoint: 'order.validate', url: 'https://a/x', statusCode: 200, durationMs: 12, success: true },
    { id: 'hc_2', appId: installed.appId, installationId: 'inst_gone', businessId: 'biz_c', hookPoint: 'checkout.shipping_rates', url: 'https://a/y', statusCode: null, durationMs: 5000, error: 'Timed out', success: false }
  ])

  // analytics read the daily counters: the migration's backfill derives them from these logs, as it did at upgrade
  const migrations = fileURLToPath(new URL('../../../server/db/migrations/', import.meta.url))
  const migration = readdirSync(migrations).filter((name) => name.endsWith('.sql')).map((name) => readFileSync(join(migrations, name), 'utf8')).find((text) => text.includes('-- backfill the counters'))
  if (migration === undefined) throw new Error('no counter backfill in server/db/migrations')
  await app.database.executeSql('delete from app_daily_counters')
  await app.database.executeSql(migration.slice(migration.indexOf('-- backfill the counters')))

  const response = await app.inject({ method: 'GET', url: `/developer/apps/${installed.appId}/analytics`, headers: installed.developer.auth })
  t.equal(response.statusCode, 200)
  const body = response.json()
  t.match(body, { totalInstalls: 3, activeInstalls: 2, webhookSuccessRate: 75, averageWebhookLatencyMs: 200 })
  t.equal(body.installTrend.length, 30)
  t.equal(body.webhookDeliveries.length, 30)
  const date = (n: number) => day(n).toISOString().slice(0, 10)
  t.same(body.installTrend.find((d: any) => d.date === date(3)), { date: date(3), installs: 2, uninstalls: 0 })
  t.same(body.installTrend.find((d: any) => d.date === date(1)), { date: date(1), installs: 0, uninstalls: 1 })
  t.same(body.webhookDeliveries.find((d: any) => d.date === date(1)), { date: date(1), succeeded: 3, failed: 1 })
  t.equal(body.installTrend.reduce((n: number, d: any) => n + d.installs, 0), 3, 'zero-filled elsewhere; the test install excluded')

  const log = await app.inject({ method: 'GET', url: `/developer/apps/${installed.appId}/deliveries?status=FAILED`, headers: installed.developer.auth })
  t.same(log.json().data.map((d: any) => d.id).sort(), ['dlv_4', 'dlv_test'])
  const calls = await app.inject({ method: 'GET', url: `/developer/apps/${installed.appId}/hook-calls?success=false`, headers: installed.developer.auth })
  t.match(calls.json(), { total: 1, data: [{ id: 'hc_2', hookPoint: 'checkout.shipping_rates', statusCode: null, error: 'Timed out' }] })
  t.equal((await app.inject({ method: 'GET', url: `/developer/apps/${installed.appId}/hook-calls?hookPoint=nope`, headers: installed.developer.auth })).statusCode, 400)

  const stranger = await installApp(app)
  t.equal((await app.inject({ method: 'GET', url: `/developer/apps/${installed.appId}/analytics`, headers: stranger.developer.auth })).statusCode, 404)
  t.equal((await app.inject({ method: 'GET', url: `/developer/apps/${installed.appId}/deliveries`, headers: stranger.developer.auth })).statusCode, 404)
})

t.test('the retention job prunes the log and the dispatched events; the cron is scheduled', async (t) => {
  const app = await build(t, { env: { DELIVERY_LOG_RETENTION_DAYS: '7' } })
  const installed = await installApp(app)
  const old = new Date(Date.now() - 8 * 86_400_000)
  await app.db.insert(webhookDeliveries).values([
    { id: 'dlv_old', webhookId: 'wh_x', installationId: installed.installationId, appId: installed.appId, businessId: 'b', event: 'order.created', data: {}, status: 'SUCCEEDED', createdAt: old },
    { id: 'dlv_new', webhookId: 'wh_x', installationId: installed.installationId, appId: installed.appId, businessId: 'b', event: 'order.created', data: {}, status: 'SUCCEEDED' }
  ])
  await app.db.insert(outboxEvents).values([
    { id: 'evt_old', businessId: 'b', event: 'order.created', data: {}, createdAt: old, dispatchedAt: old },
    { id: 'evt_old_waiting', businessId: 'b', event: 'order.created', data: {}, createdAt: old, leaseUntil: new Date(Date.now() + 60_000) },
    { id: 'evt_new', businessId: 'b', event: 'order.created', data: {}, dispatchedAt: new Date() }
  ])
  t.match(await portsOf(app).webhooks.delivery.prune(), { deliveries: 1, events: 1 })
  const left = await app.db.select({ id: outboxEvents.id }).from(outboxEvents).where(inArray(outboxEvents.id, ['evt_old', 'evt_old_waiting', 'evt_new']))
  t.same(left.map((e) => e.id).sort(), ['evt_new', 'evt_old_waiting'], 'an old event not yet dispatched stays')
  const schedules = await app.jobs.boss.getSchedules()
  t.ok(schedules.some((s) => s.name === 'webhooks.prune'))
})
