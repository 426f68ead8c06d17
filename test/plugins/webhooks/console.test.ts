import t from 'tap'
import { build, registerUser, until, portsOf } from '../../helper.ts'
import { installApp, placeOrder, receiver, registerWebhook } from './helpers.ts'

const env = { WEBHOOK_RETRY_SCHEDULE_SECONDS: '0.3,0.3,0.3,0.3,0.3', WEBHOOK_TIMEOUT_MS: '10000', RATE_LIMIT_PER_MINUTE: '3' }

t.test('the developer console of one app', async (t) => {
  const app = await build(t, { env })
  // the receiver fails the first request (500 with a body), then answers 200
  const target = await receiver(t, (_request, index) => index === 0 ? { status: 500, body: 'boom: database down' } : { status: 200, body: 'thanks' })
  const installed = await installApp(app)
  const dev = installed.developer
  const base = `/developer/apps/${installed.appId}`
  const webhook = await registerWebhook(app, installed, target.url)
  await placeOrder(app, installed.businessId)
  await target.waitFor(2)
  // the retry's answer arrived; its record follows
  await until(async () => (await app.inject({ url: `${base}/deliveries`, headers: dev.auth })).json().data[0]?.status, (status) => status === 'SUCCEEDED')

  t.test('deliveries: the list filters by status, event, registration and time', async (t) => {
    const all = await app.inject({ url: `${base}/deliveries`, headers: dev.auth })
    t.equal(all.statusCode, 200)
    t.match(all.json(), { total: 1, data: [{ webhookId: webhook.id, event: 'order.created', status: 'SUCCEEDED', attemptCount: 2 }] })
    const byHook = await app.inject({ url: `${base}/deliveries?webhookId=${webhook.id}&status=SUCCEEDED&event=order.created`, headers: dev.auth })
    t.equal(byHook.json().total, 1)
    t.equal((await app.inject({ url: `${base}/deliveries?webhookId=wh_other`, headers: dev.auth })).json().total, 0, 'another registration')
    t.equal((await app.inject({ url: `${base}/deliveries?status=FAILED`, headers: dev.auth })).json().total, 0)
    const future = new Date(Date.now() + 60_000).toISOString()
    t.equal((await app.inject({ url: `${base}/deliveries?from=${encodeURIComponent(future)}`, headers: dev.auth })).json().total, 0, 'from is inclusive of later ones only')
    t.equal((await app.inject({ url: `${base}/deliveries?to=${encodeURIComponent(future)}`, headers: dev.auth })).json().total, 1)
    t.equal((await app.inject({ url: `${base}/deliveries?status=LOST`, headers: dev.auth })).statusCode, 400, 'an unknown status')
    t.equal((await app.inject({ url: `${base}/deliveries?from=yesterday`, headers: dev.auth })).statusCode, 400, 'a time that is no date-time')
    t.equal((await app.inject({ url: `${base}/deliveries?colour=red`, headers: dev.auth })).statusCode, 200, 'an unknown query parameter is ignored, on every operation alike')
  })

  const [listed] = (await app.inject({ url: `${base}/deliveries`, headers: dev.auth })).json().data

  t.test('a delivery in detail: every attempt, headers with the signature, the exact body, the failed answer', async (t) => {
    const response = await app.inject({ url: `${base}/deliveries/${listed.id}`, headers: dev.auth })
    t.equal(response.statusCode, 200)
    const detail = response.json()
    t.equal(detail.requestBody, target.received[0].body, 'the body shown is byte for byte what was sent')
    t.equal(detail.isTestInstall, true)
    t.equal(detail.webhookUrl, target.url)
    t.equal(detail.storeName, (await portsOf(app).commerce.findBusiness(installed.businessId))?.name, 'the store by its name, not its id')
    t.equal(detail.attempts.length, 2)
    const [failed, succeeded] = detail.attempts
    t.match(failed, { attempt: 1, statusCode: 500, error: 'HTTP 500', responseSnippet: 'boom: database down', nextRetryAt: String })
    t.ok(new Date(failed.nextRetryAt).getTime() > new Date(failed.createdAt).getTime(), 'the retry was scheduled after the attempt')
    t.equal(failed.requestHeaders['x-webhook-signature'], target.received[0].headers['x-webhook-signature'], 'the signature as sent')
    t.equal(failed.requestHeaders['x-service-event-id'], listed.id)
    t.notMatch(JSON.stringify(detail), webhook.secret, 'the secret never')
    t.match(succeeded, { attempt: 2, statusCode: 200, error: null, responseSnippet: 'thanks', nextRetryAt: null })
    t.equal((await app.inject({ url: `${base}/deliveries/dlv_nope`, headers: dev.auth })).statusCode, 404)
  })

  t.test('redeliver: a new attempt with the same event id', async (t) => {
    const response = await app.inject({ method: 'POST', url: `${base}/deliveries/${listed.id}/redeliver`, headers: dev.auth })
    t.equal(response.statusCode, 202)
    t.same(response.json(), { deliveryId: listed.id, status: 'PENDING' })
    await portsOf(app).webhooks.delivery.idle()
    await target.waitFor(3)
    t.equal(target.received[2].headers['x-service-event-id'], listed.id)
    const detail = (await app.inject({ url: `${base}/deliveries/${listed.id}`, headers: dev.auth })).json()
    t.match(detail, { status: 'SUCCEEDED', attempts: [{ attempt: 1 }, { attempt: 2 }, { attempt: 3, statusCode: 200 }] })
    t.equal((await app.inject({ method: 'POST', url: `${base}/deliveries/dlv_nope/redeliver`, headers: dev.auth })).statusCode, 404)
  })

  t.test('replay: the dry run announces what the call queues', async (t) => {
    await placeOrder(app, installed.businessId)
    await portsOf(app).webhooks.delivery.idle()
    const since = new Date(Date.now() - 3600_000).toISOString()
    const preview = await app.inject({ method: 'POST', url: `${base}/webhooks/${webhook.id}/replay?dryRun=true`, headers: dev.auth, payload: { since } })
    t.equal(preview.statusCode, 200)
    t.same(preview.json(), { queued: 2, remaining: 0, remainingExact: true, nextSince: null })
    const before = target.received.length
    const replayed = await app.inject({ method: 'POST', url: `${base}/webhooks/${webhook.id}/replay`, headers: dev.auth, payload: { since } })
    t.equal(replayed.statusCode, 202)
    t.same(replayed.json(), preview.json(), 'queued what the preview said')
    await portsOf(app).webhooks.delivery.idle()
    await target.waitFor(before + 2)
    t.equal((await app.inject({ method: 'POST', url: `${base}/webhooks/${webhook.id}/replay`, headers: dev.auth, payload: { since: 'soon' } })).statusCode, 400)
    t.equal((await app.inject({ method: 'POST', url: `${base}/webhooks/${webhook.id}/replay`, headers: dev.auth, payload: { since, extra: 1 } })).statusCode, 400)
  })

  t.test('send a test event to one registration', async (t) => {
    const response = await app.inject({ method: 'POST', url: `${base}/webhooks/${webhook.id}/test`, headers: dev.auth })
    t.equal(response.statusCode, 200)
    t.match(response.json(), { success: true, statusCode: 200 })
    t.equal(target.received.at(-1)?.headers['x-webhook-event'], 'webhook.test')
    t.equal((await app.inject({ method: 'POST', url: `${base}/webhooks/wh_nope/test`, headers: dev.auth })).statusCode, 404)
  })

  t.test('registrations across installations, and re-enabling one', async (t) => {
    const list = await app.inject({ url: `${base}/webhooks`, headers: dev.auth })
    t.equal(list.statusCode, 200)
    const ids = list.json().data.map((w: { id: string }) => w.id)
    t.ok(ids.includes(webhook.id))
    const mine = list.json().data.find((w: { id: string }) => w.id === webhook.id)
    t.match(mine, { isTestInstall: true, installationActive: true, installationId: installed.installationId })
    await app.inject({ method: 'PATCH', url: `/webhooks/${webhook.id}`, headers: installed.auth, payload: { isActive: false } })
    const off = (await app.inject({ url: `${base}/webhooks`, headers: dev.auth })).json().data.find((w: { id: string }) => w.id === webhook.id)
    t.match(off, { isActive: false, disabledReason: 'Disabled by the app' }, 'says why it is off')
    const redeliver = await app.inject({ method: 'POST', url: `${base}/deliveries/${listed.id}/redeliver`, headers: dev.auth })
    t.equal(redeliver.statusCode, 409, 'an inactive registration takes no redelivery')
    t.equal((await app.inject({ method: 'PATCH', url: `${base}/webhooks/${webhook.id}`, headers: dev.auth, payload: { isActive: false } })).statusCode, 400, 'only re-enabling')
    t.equal((await app.inject({ method: 'PATCH', url: `${base}/webhooks/${webhook.id}`, headers: dev.auth, payload: {} })).statusCode, 400)
    const on = await app.inject({ method: 'PATCH', url: `${base}/webhooks/${webhook.id}`, headers: dev.auth, payload: { isActive: true } })
    t.equal(on.statusCode, 200)
    t.match(on.json(), { isActive: true, disabledReason: null, consecutiveFailures: 0 })
  })

  t.test('analytics: counters by day, sandbox apart from live', async (t) => {
    for (let i = 0; i < 4; i++) await app.inject({ url: '/app-api/products', headers: installed.auth })
    const sandbox = await app.inject({ url: `${base}/analytics?days=7&environment=sandbox`, headers: dev.auth })
    t.equal(sandbox.statusCode, 200)
    const body = sandbox.json()
    t.equal(body.days, 7)
    t.equal(body.installTrend.length, 7)
    t.equal(body.totalInstalls, 1)
    t.equal(body.installTrend.at(-1).installs, 1, 'today\'s test install')
    // two orders; each redelivery and replay finishes a delivery once more, and counts again
    t.equal(body.webhookDeliveries.at(-1).succeeded, 5)
    t.equal(body.webhookDeliveries.at(-1).failed, 0, 'the failed first attempt was retried, so no delivery failed')
    t.ok(body.webhookSuccessRate > 1 && body.webhookSuccessRate <= 100, `a percentage: ${body.webhookSuccessRate as number}`)
    t.ok(body.averageWebhookLatencyMs >= 0)
    const today = body.apiRequests.at(-1)
    t.ok(today.ok >= 1, 'App API answers counted')
    t.ok(today.rateLimited >= 1, '429s counted apart (RATE_LIMIT_PER_MINUTE 3)')
    t.equal(body.hookCalls.length, 5, 'every hook point')
    const live = (await app.inject({ url: `${base}/analytics`, headers: dev.auth })).json()
    t.match(live, { days: 30, environment: 'live', totalInstalls: 0, webhookSuccessRate: null })
    t.equal(live.installTrend.length, 30)
    t.equal(live.installTrend.at(-1).installs, 0, 'test installs are left out of the published figures')
    t.equal((await app.inject({ url: `${base}/analytics?days=90`, headers: dev.auth })).json().installTrend.length, 90)
    t.equal((await app.inject({ url: `${base}/analytics?days=5`, headers: dev.auth })).statusCode, 400)
    t.equal((await app.inject({ url: `${base}/analytics?environment=staging`, headers: dev.auth })).statusCode, 400)
  })

  t.test('another developer, a merchant and no session get nothing', async (t) => {
    const other = await registerUser(app, 'DEVELOPER')
    const merchant = await registerUser(app, 'MERCHANT')
    const routes: Array<{ method: 'GET' | 'POST' | 'PATCH', url: string, payload?: Record<string, unknown> }> = [
      { method: 'GET', url: `${base}/analytics` },
      { method: 'GET', url: `${base}/webhooks` },
      { method: 'PATCH', url: `${base}/webhooks/${webhook.id}`, payload: { isActive: true } },
      { method: 'POST', url: `${base}/webhooks/${webhook.id}/test` },
      { method: 'POST', url: `${base}/webhooks/${webhook.id}/replay`, payload: { since: new Date().toISOString() } },
      { method: 'GET', url: `${base}/deliveries` },
      { method: 'GET', url: `${base}/deliveries/${listed.id}` },
      { method: 'POST', url: `${base}/deliveries/${listed.id}/redeliver` },
      { method: 'GET', url: `${base}/hook-calls` },
      { method: 'GET', url: `${base}/hook-calls/hkc_x` },
      { method: 'GET', url: `${base}/live` }
    ]
    for (const route of routes) {
      const as = async (headers: Record<string, string>) => (await app.inject({ ...route, headers })).statusCode
      t.equal(await as(other.auth), 404, `${route.method} ${route.url}: another developer's app is 404`)
      t.equal(await as(merchant.auth), 403, `${route.method} ${route.url}: a merchant`)
      t.equal(await as({}), 401, `${route.method} ${route.url}: no session`)
    }
    // the other developer's own app does not reach this app's registration either
    const theirs = await installApp(app, {}, other)
    const cross = await app.inject({ method: 'POST', url: `/developer/apps/${theirs.appId}/webhooks/${webhook.id}/test`, headers: other.auth })
    t.equal(cross.statusCode, 404, 'a registration of another app through one\'s own app')
    const crossDelivery = await app.inject({ url: `/developer/apps/${theirs.appId}/deliveries/${listed.id}`, headers: other.auth })
    t.equal(crossDelivery.statusCode, 404)
  })
})

t.test('a failing delivery shows its error, its answer and the retry it scheduled', async (t) => {
  const app = await build(t, { env: { WEBHOOK_RETRY_SCHEDULE_SECONDS: '3600', WEBHOOK_TIMEOUT_MS: '10000' } })
  const target = await receiver(t, () => ({ status: 503, body: 'maintenance' }))
  const installed = await installApp(app)
  await registerWebhook(app, installed, target.url)
  await placeOrder(app, installed.businessId)
  await portsOf(app).webhooks.delivery.idle()
  const base = `/developer/apps/${installed.appId}`
  const [delivery] = (await app.inject({ url: `${base}/deliveries?status=PENDING`, headers: installed.developer.auth })).json().data
  t.match(delivery, { status: 'PENDING', lastStatusCode: 503, lastError: 'HTTP 503', nextAttemptAt: String })
  const detail = (await app.inject({ url: `${base}/deliveries/${delivery.id}`, headers: installed.developer.auth })).json()
  t.match(detail.attempts, [{ attempt: 1, statusCode: 503, error: 'HTTP 503', responseSnippet: 'maintenance' }])
  t.equal(detail.attempts[0].nextRetryAt, delivery.nextAttemptAt, 'the attempt says when the next one happens')
})
