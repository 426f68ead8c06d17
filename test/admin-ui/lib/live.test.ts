import t from 'tap'
import { installDom } from '../dom.ts'

installDom()
const { h, render } = await import('preact')
const { act } = await import('preact/test-utils')
const { parseEvents, useLive } = await import('../../../admin-ui/src/lib/use-live.ts')
type LiveState = import('../../../admin-ui/src/lib/use-live.ts').LiveState

t.test('parseEvents splits a stream into events and keeps the unfinished rest', async (t) => {
  const seen: Array<[string, string]> = []
  const rest = parseEvents('event: ready\ndata: {}\n\ndata: a\ndata: b\n\n: comment only\n\nevent: delivery\ndata: {"id"', (type, data) => seen.push([type, data]))
  t.same(seen, [['ready', '{}'], ['message', 'a\nb']], 'a block with no data line is no event; data lines join with \\n')
  t.equal(rest, 'event: delivery\ndata: {"id"')
  t.equal(parseEvents(`${rest}:1}\n\n`, (type, data) => seen.push([type, data])), '')
  t.same(seen.at(-1), ['delivery', '{"id":1}'])
})

/** A server-sent event stream the test writes to, as fetch's answer. */
function stream () {
  let controller!: ReadableStreamDefaultController<Uint8Array>
  const body = new ReadableStream<Uint8Array>({ start (c) { controller = c } })
  const encoder = new TextEncoder()
  return {
    response: new Response(body, { status: 200, headers: { 'content-type': 'text/event-stream' } }),
    send: (text: string) => controller.enqueue(encoder.encode(text)),
    end: () => controller.close()
  }
}

/** Resolves once `check` holds, re-checking after every task the hook's promises queue. */
async function until (check: () => boolean): Promise<void> {
  for (let i = 0; i < 1000 && !check(); i++) await act(async () => { await new Promise((resolve) => setImmediate(resolve)) })
  if (!check()) throw new Error('condition never held')
}

t.test('useLive: connects with the session, goes live on ready, hands over deliveries, reconnects when the server ends it', async (t) => {
  const answers = [stream(), stream()]
  const requests: Array<{ url: string, headers: Record<string, string> }> = []
  const realFetch = globalThis.fetch
  globalThis.fetch = (async (url: string, init: RequestInit) => {
    requests.push({ url, headers: init.headers as Record<string, string> })
    return answers[requests.length - 1].response
  }) as typeof fetch
  // the reconnect delay is the hook's only timer: run it at once, so the test waits for work, not time
  const realSetTimeout = globalThis.setTimeout
  const delays: number[] = []
  globalThis.setTimeout = ((fn: () => void, ms: number) => { delays.push(ms); return realSetTimeout(fn, 0) }) as typeof setTimeout
  t.teardown(() => { globalThis.fetch = realFetch; globalThis.setTimeout = realSetTimeout })

  const states: LiveState[] = []
  const events: unknown[] = []
  function Probe () {
    states.push(useLive('app 1', () => 'jwt', (event) => events.push(event)))
    return null
  }
  const root = document.createElement('div')
  await act(async () => { render(h(Probe, null), root) })
  t.equal(states[0], 'connecting')
  await until(() => requests.length === 1)
  t.equal(requests[0].url, '/developer/apps/app%201/live')
  t.same(requests[0].headers, { accept: 'text/event-stream', authorization: 'Bearer jwt' })

  answers[0].send('event: ready\ndata: {}\n\n')
  await until(() => states.at(-1) === 'live')
  answers[0].send('event: delivery\ndata: {"kind":"delivery","id":"d1"}\n\nevent: hookCall\ndata: {"kind":"hookCall","id":"h1"}\n\nevent: other\ndata: {}\n\n')
  await until(() => events.length === 2)
  t.same(events, [{ kind: 'delivery', id: 'd1' }, { kind: 'hookCall', id: 'h1' }], 'only deliveries and hook calls are handed over')

  answers[0].end()
  await until(() => requests.length === 2)
  t.ok(states.includes('reconnecting'))
  t.same(delays, [1000], 'the first reconnect waits one second')
  answers[1].send('event: ready\ndata: {}\n\n')
  await until(() => states.at(-1) === 'live')

  await act(async () => { render(null, root) })
  t.equal(requests.length, 2, 'unmounting stops it')
})

t.test('useLive: a 401, 403 or 404 turns it off without retrying; disabled never connects', async (t) => {
  const realFetch = globalThis.fetch
  t.teardown(() => { globalThis.fetch = realFetch })
  for (const status of [401, 403, 404]) {
    let calls = 0
    globalThis.fetch = (async () => { calls += 1; return new Response(null, { status }) }) as unknown as typeof fetch
    const states: LiveState[] = []
    function Probe () { states.push(useLive('a', () => null, () => {})); return null }
    const root = document.createElement('div')
    await act(async () => { render(h(Probe, null), root) })
    await until(() => states.at(-1) === 'off')
    t.equal(calls, 1, `${status}: one request`)
    await act(async () => { render(null, root) })
  }
  let calls = 0
  globalThis.fetch = (async () => { calls += 1; return new Response(null) }) as unknown as typeof fetch
  const states: LiveState[] = []
  function Off () { states.push(useLive('a', () => null, () => {}, false)); return null }
  const root = document.createElement('div')
  await act(async () => { render(h(Off, null), root) })
  t.same([...new Set(states)], ['off'])
  t.equal(calls, 0)
})
