import t from 'tap'
import { build, portsOf } from '../../helper.ts'
import { installApp, placeOrder, receiver, registerWebhook, until } from './helpers.ts'

const env = { WEBHOOK_RETRY_SCHEDULE_SECONDS: '1,1,1,1,1', WEBHOOK_TIMEOUT_MS: '1500', WEBHOOK_DISABLE_AFTER_FAILURES: '2' }

async function deliveriesOf (app: Awaited<ReturnType<typeof build>>, auth: { authorization: string }, webhookId: string) {
  const response = await app.inject({ method: 'GET', url: `/webhooks/${webhookId}/deliveries`, headers: auth })
  return response.json().data as any[]
}

t.test('retries', async (t) => {
  const app = await build(t, { env })

  t.test('500 twice, then 200: three attempts, one event id, fresh timestamps, delays on the schedule', async (t) => {
    const sink = await receiver(t, (_request, index) => ({ status: index < 2 ? 500 : 200 }))
    const installed = await installApp(app)
    const webhook = await registerWebhook(app, installed, sink.url)
    await placeOrder(app, installed.businessId)
    const got = await sink.waitFor(3)
    t.equal(new Set(got.map((r) => r.headers['x-service-event-id'])).size, 1, 'same X-Service-Event-Id')
    for (const [i, gap] of [got[1].at - got[0].at, got[2].at - got[1].at].entries()) {
      t.ok(gap >= 950 && gap < 3500, `retry ${i + 1} after ${gap} ms (schedule 1 s)`)
    }
    t.ok(Number(got[2].headers['x-webhook-timestamp']) > Number(got[0].headers['x-webhook-timestamp']), 'timestamp of each attempt')
    t.not(got[2].headers['x-webhook-signature'], got[0].headers['x-webhook-signature'], 'signature recomputed')
    const [delivery] = await until(() => deliveriesOf(app, installed.auth, webhook.id), ([d]) => d?.status !== 'PENDING')
    t.match(delivery, { status: 'SUCCEEDED', attemptCount: 3, lastStatusCode: 200 })
    t.same(delivery.attempts.map((a: any) => a.statusCode), [500, 500, 200])
  })

  t.test('a receiver slower than WEBHOOK_TIMEOUT_MS fails the attempt; a 301 is a failure and is not followed', async (t) => {
    let followed = 0
    const slow = await receiver(t, () => ({ delayMs: 4000 }))
    const target = await receiver(t, () => { followed += 1; return {} })
    const moved = await receiver(t, () => ({ status: 301, headers: { location: target.url } }))
    const installed = await installApp(app)
    const slowHook = await registerWebhook(app, installed, slow.url)
    const movedHook = await registerWebhook(app, installed, moved.url)
    await placeOrder(app, installed.businessId)
    await Promise.all([slow.waitFor(2), moved.waitFor(2)])
    const [timedOut] = await until(() => deliveriesOf(app, installed.auth, slowHook.id), ([d]) => d?.attempts.length >= 1)
    t.match(timedOut.attempts[0], { statusCode: null, error: /Timed out after 1500 ms/ })
    t.ok(timedOut.attempts[0].durationMs < 3500, 'cut at the timeout')
    const [redirected] = await until(() => deliveriesOf(app, installed.auth, movedHook.id), ([d]) => d?.attempts.length >= 1)
    t.match(redirected.attempts[0], { statusCode: 301, error: 'HTTP 301' })
    t.equal(followed, 0, 'the redirect target is never called')
  })

  t.test('5 retries, then FAILED; consecutive failed deliveries disable the webhook; PATCH re-enables it', async (t) => {
    const sink = await receiver(t, () => ({ status: 503, body: 'x'.repeat(5000) }))
    const installed = await installApp(app)
    const webhook = await registerWebhook(app, installed, sink.url)
    await placeOrder(app, installed.businessId)
    await placeOrder(app, installed.businessId)
    await sink.waitFor(12)
    const deliveries = await until(() => deliveriesOf(app, installed.auth, webhook.id), (all) => all.length === 2 && all.every((d) => d.status === 'FAILED'))
    t.equal(deliveries.length, 2)
    for (const d of deliveries) {
      t.match(d, { status: 'FAILED', attemptCount: 6, lastStatusCode: 503 })
      t.equal(d.attempts[0].responseSnippet.length, 1024, 'response snippet capped at 1 KB')
    }
    const disabled = await app.inject({ method: 'GET', url: `/webhooks/${webhook.id}`, headers: installed.auth })
    t.match(disabled.json(), { isActive: false, disabledReason: 'Disabled after 2 consecutive failed deliveries', consecutiveFailures: 2 })

    await placeOrder(app, installed.businessId)
    await portsOf(app).webhooks.delivery.idle()
    t.equal(sink.received.length, 12, 'a disabled webhook gets nothing')

    const enabled = await app.inject({ method: 'PATCH', url: `/webhooks/${webhook.id}`, headers: installed.auth, payload: { isActive: true } })
    t.match(enabled.json(), { isActive: true, disabledReason: null, consecutiveFailures: 0 })
  })
})
