import t from 'tap'
import { verifyWebhook } from '@app-platform/sdk'
import { registerUser, portsOf } from '../helper.ts'
import { localApp, relaySession, runCli, startCli } from './helper.ts'

/** The fee the local app answers checkout.shipping_rates with: the quote must show it. */
const LOCAL_FEE = 777

t.test('listen relays the sandbox\'s webhooks and hook calls to a local app', async (t) => {
  const { app, base, developer, home, appId, installed: { webhookSecret }, quote } = await relaySession(t, 'relay-app')

  // the local app: answers the shipping hook with its own fee, and webhooks with 200
  const { origin, received } = await localApp(t, (request, response) => {
    if (request.path === '/webhooks/hooks/shipping-rates') response.end(JSON.stringify({ fee: LOCAL_FEE }))
    else if (request.path === '/webhooks') response.end('{"ok":true}')
    else { response.statusCode = 404; response.end('{}') }
  })
  const local = `${origin}/webhooks`

  t.test('without a listener, calls go to the network as before', async (t) => {
    const quoted = await quote()
    t.not(quoted.deliveryFee, LOCAL_FEE)
    t.equal(received.length, 0)
  })

  const relay = startCli(['listen', '--app', appId, '--forward-to', local, '--json', '--server', base], { home })
  t.teardown(() => { relay.child.kill('SIGINT') })
  t.match(JSON.parse(await relay.line((line) => line.includes('"ready"'))), { ready: true, appId, forwardTo: new URL(local).origin })

  t.test('a checkout.shipping_rates hook: the local answer sets the quote\'s fee', async (t) => {
    const quoted = await quote()
    t.equal(quoted.deliveryFee, LOCAL_FEE)
    t.match(quoted.deliveryFeeSetBy, { provider: 'app', appId })
    const hook = received.find((r) => r.path === '/webhooks/hooks/shipping-rates')
    t.ok(hook, 'the hook went to the local URL plus the hook\'s path')
    t.match(hook?.headers['x-webhook-signature'], /\S/, 'signed as usual')
    await relay.line((line) => line.includes('checkout.shipping_rates'))
    await portsOf(app).checkoutHooks.flush()
    const calls = (await app.inject({ url: `/developer/apps/${appId}/hook-calls?hookPoint=checkout.shipping_rates`, headers: developer.auth })).json().data
    t.match(calls[0], { success: true, relayed: true, statusCode: 200 }, 'the console marks the call relayed')
  })

  t.test('a webhook delivery, signed as usual, answered by the local app', async (t) => {
    const status = (await app.inject({ url: `/developer/apps/${appId}/test-status`, headers: developer.auth })).json()
    const webhookId = status.webhooks[0].id as string
    const tested = await app.inject({ method: 'POST', url: `/developer/apps/${appId}/webhooks/${webhookId}/test`, headers: developer.auth })
    t.match(tested.json(), { success: true, statusCode: 200 })
    const delivery = received.find((r) => r.path === '/webhooks')
    t.ok(delivery)
    const verified = verifyWebhook(delivery?.body ?? '', delivery?.headers ?? {}, webhookSecret)
    t.equal(verified.event, 'webhook.test', 'the SDK verifies the relayed delivery with the installation\'s secret')
    const deliveries = (await app.inject({ url: `/developer/apps/${appId}/deliveries`, headers: developer.auth })).json().data
    const detail = (await app.inject({ url: `/developer/apps/${appId}/deliveries/${deliveries[0].id as string}`, headers: developer.auth })).json()
    t.match(detail.attempts, [{ statusCode: 200, relayed: true }], 'the console marks the attempt relayed')
    const listed = (await app.inject({ url: `/developer/apps/${appId}/relay-calls`, headers: developer.auth })).json().data
    t.ok(listed.some((call: { kind: string, status: number }) => call.kind === 'webhook' && call.status === 200))
    t.ok(listed.some((call: { kind: string, name: string }) => call.kind === 'hook' && call.name === 'checkout.shipping_rates'))
  })

  t.test('trigger emits a sample event, relayed to the local app; logs tails it', async (t) => {
    const tail = startCli(['logs', '--app', appId, '--json', '--server', base], { home })
    t.teardown(() => { tail.child.kill('SIGINT') })
    t.match(JSON.parse(await tail.line((line) => line.includes('"ready"'))), { ready: true, appId }, 'subscribed before anything is triggered')
    const unknown = await runCli(['trigger', 'order.exploded', '--app', appId, '--server', base], { home })
    t.equal(unknown.code, 1)
    t.match(unknown.stderr, /Unknown event order\.exploded: one of order\.created/)
    const triggered = await runCli(['trigger', 'order.created', '--app', appId, '--json', '--server', base], { home })
    t.equal(triggered.code, 0, triggered.stderr)
    t.match(JSON.parse(triggered.stdout), { event: 'order.created', eventId: /^evt_/, data: { sample: true } })
    const logged = JSON.parse(await tail.line((line) => line.includes('"order.created"')))
    t.match(logged, { type: 'delivery', event: 'order.created', statusCode: 200, relayed: true })
    const delivered = received.find((r) => r.path === '/webhooks' && r.body.includes('"order.created"'))
    t.ok(delivered, 'the sample reached the local app through the relay')
    tail.child.kill('SIGINT')
    t.equal((await tail.exited).code, 0)
  })

  t.test('another business\'s calls are never relayed; another developer cannot listen or answer', async (t) => {
    const elsewhere = await portsOf(app).relay.call({ appId, businessId: 'biz_production', kind: 'hook', name: 'checkout.shipping_rates', url: 'https://app.example/x', headers: {}, body: '{}', timeoutMs: 1000 })
    t.equal(elsewhere, null)
    const other = await registerUser(app, 'DEVELOPER')
    t.equal((await app.inject({ url: `/developer/apps/${appId}/relay-calls`, headers: other.auth })).statusCode, 404)
    t.equal((await app.inject({ method: 'POST', url: `/developer/apps/${appId}/relay/rly_x`, headers: other.auth, payload: { status: 200, headers: {}, body: '' } })).statusCode, 404)
  })

  t.test('a second listen takes the session over; the first stops rather than take it back', async (t) => {
    const second = startCli(['listen', '--app', appId, '--forward-to', local, '--json', '--server', base], { home })
    t.teardown(() => { second.child.kill('SIGINT') })
    await second.line((line) => line.includes('"ready"'))
    const first = await relay.exited
    t.equal(first.code, 1)
    t.match(first.stdout, /took over; this one stops/)
    const quoted = await quote()
    t.equal(quoted.deliveryFee, LOCAL_FEE, 'the second session relays')
    second.child.kill('SIGINT')
    t.equal((await second.exited).code, 0)
  })

  t.test('after the listener stops, calls go to the network again', async (t) => {
    const before = received.length
    const quoted = await quote()
    t.not(quoted.deliveryFee, LOCAL_FEE)
    t.equal(received.length, before)
  })
})
