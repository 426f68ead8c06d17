import t from 'tap'
import type { ServerResponse } from 'node:http'
import { verifyWebhook } from '@app-platform/sdk'
import { gate, until, within, portsOf } from '../helper.ts'
import { localApp, relaySession, runCli, startCli, type CliProcess } from './helper.ts'

/** DESIGN §22: SIGINT and SIGTERM end `listen` within a second, whatever it is relaying. */
const STOP_WITHIN_MS = 1000

/** Sends `signal` and resolves with the exit code and how long the CLI took to exit. */
async function stopWith (cli: CliProcess, signal: NodeJS.Signals): Promise<{ code: number | null, ms: number }> {
  const started = performance.now()
  cli.child.kill(signal)
  const result = await within(cli.exited, 10_000, `listen to exit on ${signal}`)
  return { code: result.code, ms: performance.now() - started }
}

t.test('listen relays to the paths production would use and stops on a signal', async (t) => {
  // registered on a port nobody listens on: only the relay reaches the local app, at the same paths
  const { app, base, home, appId, production, installed: { accessToken }, quote } = await relaySession(t, 'paths-app')

  // the local app: every path answers 200, except a hook while `held` is set, which it answers only when released
  const held = { on: false, release: gate(), arrived: gate() }
  const open: ServerResponse[] = []
  t.teardown(() => { held.release.open() })
  const { origin, received } = await localApp(t, (request, response) => {
    if (held.on && request.path.includes('/hooks/')) {
      open.push(response)
      held.arrived.open()
      void held.release.opened.then(() => response.end(JSON.stringify({ fee: 1 })))
      return
    }
    response.end(request.path.endsWith('/shipping-rates') ? JSON.stringify({ fee: 777 }) : '{"ok":true}')
  })

  const register = async (path: string) => {
    const created = await app.inject({
      method: 'POST', url: '/webhooks', headers: { authorization: `Bearer ${accessToken}` }, payload: { url: `${production}${path}`, events: ['order.created'] }
    })
    t.equal(created.statusCode, 201, created.body)
    return created.json() as { id: string, secret: string }
  }
  const orders = await register('/hooks-in/orders?source=a')
  const audit = await register('/audit/events')

  const relay = startCli(['listen', '--app', appId, '--forward-to', origin, '--json', '--server', base], { home })
  t.teardown(() => { relay.child.kill('SIGKILL') })
  t.match(JSON.parse(await relay.line((line) => line.includes('"ready"'))), { ready: true, appId, forwardTo: origin })

  t.test('each registration, the app\'s webhook and a hook reach the origin plus their own path', async (t) => {
    t.equal((await quote()).deliveryFee, 777, 'the hook answered locally')
    t.ok(received.some((r) => r.path === '/webhooks/hooks/shipping-rates'), 'a hook: the webhook URL\'s path plus the hook\'s')
    const triggered = await runCli(['trigger', 'order.created', '--app', appId, '--json', '--server', base], { home })
    t.equal(triggered.code, 0, triggered.stderr)
    const at = async (path: string) => await until(async () => received.find((r) => r.path === path && r.body.includes('"order.created"')), (found) => found !== undefined)
    const first = await at('/hooks-in/orders?source=a')
    const second = await at('/audit/events')
    await at('/webhooks')
    t.equal(verifyWebhook(first?.body ?? '', first?.headers ?? {}, orders.secret).event, 'order.created', 'each registration verifies with its own secret')
    t.equal(verifyWebhook(second?.body ?? '', second?.headers ?? {}, audit.secret).event, 'order.created')
  })

  t.test('logs --since prints the recent deliveries and hook calls before tailing', async (t) => {
    await portsOf(app).checkoutHooks.flush()
    const refused = await runCli(['logs', '--app', appId, '--since', 'yesterday', '--server', base], { home })
    t.equal(refused.code, 2)
    t.match(refused.stderr, /--since takes a duration like 30s, 15m/)
    const tail = startCli(['logs', '--app', appId, '--since', '10m', '--json', '--server', base], { home })
    t.teardown(() => { tail.child.kill('SIGKILL') })
    await tail.line((line) => line.includes('"ready"'))
    const before = tail.stdout().split('\n').filter((line) => line.includes('"history":true')).map((line) => JSON.parse(line) as { type: string, event?: string, hookPoint?: string })
    t.ok(before.some((item) => item.type === 'delivery' && item.event === 'order.created'), 'the deliveries of the last ten minutes')
    t.ok(before.some((item) => item.type === 'hookCall' && item.hookPoint === 'checkout.shipping_rates'), 'and the hook calls')
    t.equal((await stopWith(tail, 'SIGINT')).code, 0)
  })

  t.test('SIGINT while a hook call waits on the local app: exits 0 within a second', async (t) => {
    held.on = true
    const quoting = quote()
    await held.arrived.opened
    const stopped = await stopWith(relay, 'SIGINT')
    t.equal(stopped.code, 0)
    t.ok(stopped.ms < STOP_WITHIN_MS, `exited in ${Math.round(stopped.ms)} ms`)
    held.release.open()
    await quoting
  })

  t.test('SIGTERM after relaying: exits 0 within a second', async (t) => {
    held.on = false
    const second = startCli(['listen', '--app', appId, '--forward-to', origin, '--json', '--server', base], { home })
    t.teardown(() => { second.child.kill('SIGKILL') })
    await second.line((line) => line.includes('"ready"'))
    t.equal((await quote()).deliveryFee, 777)
    await second.line((line) => line.includes('checkout.shipping_rates'))
    const stopped = await stopWith(second, 'SIGTERM')
    t.equal(stopped.code, 0)
    t.ok(stopped.ms < STOP_WITHIN_MS, `exited in ${Math.round(stopped.ms)} ms`)
  })
})
