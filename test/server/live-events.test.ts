import t from 'tap'
import type { AddressInfo } from 'node:net'
import { buildApp } from '../../server/app.ts'
import { build } from '../helper.ts'
import { createLiveEvents, payloads, type LiveItem } from '../../server/plugins/live-events.ts'
import { installApp, placeOrder, receiver, registerWebhook } from '../plugins/webhooks/helpers.ts'

t.test('NOTIFY payloads stay under the limit, in order, one app each', async (t) => {
  const items: LiveItem[] = Array.from({ length: 300 }, (_, i) => ({ type: 'delivery', id: `dlv_${i}`, error: 'x'.repeat(40) }))
  const out = payloads('app_1', items)
  t.ok(out.length > 1, `cut into ${out.length} payloads`)
  t.ok(out.every((p) => Buffer.byteLength(p) < 7500), 'each under 7 500 bytes')
  const back = out.flatMap((p) => JSON.parse(p).items as LiveItem[])
  t.same(back.map((i) => i.id), items.map((i) => i.id), 'nothing lost, nothing reordered')
  t.ok(out.every((p) => JSON.parse(p).appId === 'app_1'))
  t.same(payloads('app_1', [{ type: 'delivery', id: 'huge', error: 'x'.repeat(10_000) }]), [], 'an event too big on its own is left out')
})

t.test('subscribers get their app\'s events only, through the channel', async (t) => {
  const sent: string[] = []
  let deliver: ((payload: string) => void) | null = null
  const live = createLiveEvents({
    notify: async (_channel, payload) => { sent.push(payload); deliver?.(payload) },
    listen: async (_channel, onMessage) => { deliver = onMessage; return async () => { deliver = null } },
    onError: (error) => { throw error }
  })
  t.teardown(() => live.close())
  const mine: LiveItem[] = []
  const unsubscribe = await live.subscribe('app_1', (item) => mine.push(item))
  live.publish('app_1', { type: 'delivery', id: 'a' })
  live.publish('app_2', { type: 'delivery', id: 'b' })
  live.publish('app_1', { type: 'hookCall', id: 'c' })
  await live.flush()
  t.equal(sent.length, 2, 'one NOTIFY per app')
  t.same(mine.map((i) => i.id), ['a', 'c'])
  unsubscribe()
  live.publish('app_1', { type: 'delivery', id: 'd' })
  await live.flush()
  t.same(mine.map((i) => i.id), ['a', 'c'], 'nothing after unsubscribing')
})

t.test('the live tail of a web process shows what a worker process delivered', async (t) => {
  const worker = await build(t)
  // a second process on the same database that attempts nothing itself
  const web = await buildApp({ config: { ...worker.config, processRole: 'web' }, database: worker.database })
  t.teardown(() => web.close())
  await web.listen({ port: 0, host: '127.0.0.1' })
  const url = `http://127.0.0.1:${(web.server.address() as AddressInfo).port}`
  const target = await receiver(t)
  const installed = await installApp(worker)
  await registerWebhook(worker, installed, target.url)
  const controller = new AbortController()
  t.teardown(() => controller.abort())
  const response = await fetch(`${url}/developer/apps/${installed.appId}/live`, { headers: installed.developer.auth, signal: controller.signal })
  t.equal(response.status, 200)
  const reader = (response.body as ReadableStream<Uint8Array>).getReader()
  const decoder = new TextDecoder()
  let text = ''
  const readUntil = async (pattern: RegExp) => {
    const deadline = Date.now() + 10_000
    while (!pattern.test(text) && Date.now() < deadline) {
      const { value, done } = await reader.read()
      if (done) break
      text += decoder.decode(value, { stream: true })
    }
    return pattern.test(text)
  }
  t.ok(await readUntil(/event: ready/), 'subscribed')
  await placeOrder(worker, installed.businessId)
  t.ok(await readUntil(/event: delivery\n/), 'the worker\'s attempt arrived on the web process\'s stream')
  t.match(text, /"status":"SUCCEEDED"/)
})
