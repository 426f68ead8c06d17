import t from 'tap'
import { build, listen, until, within } from '../../helper.ts'
import { installApp, placeOrder, receiver, registerWebhook } from '../webhooks/helpers.ts'

t.test('the live tail streams new deliveries as server-sent events', async (t) => {
  const app = await build(t)
  const url = await listen(app)
  const target = await receiver(t)
  const installed = await installApp(app)
  await registerWebhook(app, installed, target.url)
  const controller = new AbortController()
  t.teardown(() => controller.abort())
  const response = await fetch(`${url}/developer/apps/${installed.appId}/live`, { headers: installed.developer.auth, signal: controller.signal })
  t.equal(response.status, 200)
  t.match(response.headers.get('content-type'), /^text\/event-stream/)
  const reader = (response.body as ReadableStream<Uint8Array>).getReader()
  const decoder = new TextDecoder()
  let text = ''
  /** Reads the stream until `pattern` shows; bounded, so a missing event fails here saying which. */
  async function readUntil (pattern: RegExp, timeoutMs: number): Promise<string> {
    const read = async () => {
      while (!pattern.test(text)) {
        const chunk = await reader.read()
        if (chunk.done) throw new Error('stream ended')
        text += decoder.decode(chunk.value, { stream: true })
      }
      return text
    }
    return await within(read(), timeoutMs, `${pattern} on the stream (so far: ${text})`)
  }
  await readUntil(/event: ready/, 60_000)
  await placeOrder(app, installed.businessId)
  // from the commit of the order: dispatch, the attempt, its record, the NOTIFY, the stream
  const started = Date.now()
  await readUntil(/event: delivery\n/, 60_000)
  // the aim is a second on a quiet machine; the bound is three, so a loaded CI machine does not fail it
  t.ok(Date.now() - started < 3000, `the delivery arrived in ${Date.now() - started} ms`)
  const data = /event: delivery\nid: [^\n]+\ndata: ([^\n]+)/.exec(text)?.[1] as string
  t.match(JSON.parse(data), { type: 'delivery', event: 'order.created', status: 'SUCCEEDED', statusCode: 200, installationId: installed.installationId })

  t.test('bounded per developer', async (t) => {
    const extra: AbortController[] = []
    t.teardown(() => { for (const c of extra) c.abort() })
    const codes: number[] = []
    for (let i = 0; i < 5; i++) {
      const c = new AbortController()
      extra.push(c)
      const r = await fetch(`${url}/developer/apps/${installed.appId}/live`, { headers: installed.developer.auth, signal: c.signal })
      codes.push(r.status)
      if (r.status !== 200) t.match(await r.json(), { statusCode: 429, message: /At most 5 live tails/ })
    }
    t.same(codes, [200, 200, 200, 200, 429], 'the fifth one beside the first stream is refused')
    extra[0].abort()
    const again = await until(async () => {
      const c = new AbortController()
      extra.push(c)
      const r = await fetch(`${url}/developer/apps/${installed.appId}/live`, { headers: installed.developer.auth, signal: c.signal })
      if (r.status !== 200) c.abort()
      return r.status
    }, (status) => status === 200)
    t.equal(again, 200, 'a closed stream frees its place')
  })
})
