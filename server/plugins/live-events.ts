import fp from 'fastify-plugin'

/** NOTIFY channel of the developer console's live tail. */
export const LIVE_CHANNEL = 'console_live'
/** Events are gathered this long and sent as one NOTIFY per app. */
const PUBLISH_INTERVAL_MS = 100
/** PostgreSQL refuses a NOTIFY payload of 8000 bytes or more. */
const MAX_PAYLOAD_BYTES = 7500
/** Events kept while waiting for the next NOTIFY: beyond that, newer ones are dropped (the console reloads its lists anyway). */
const MAX_PENDING = 5000

/** One event of an app's live tail; `type` tells the console which log it belongs to. */
export interface LiveItem { type: string, id: string, [key: string]: unknown }
export type LiveSubscriber = (item: LiveItem) => void

declare module 'fastify' {
  interface FastifyInstance {
    /** The live tail's bus: what one process publishes, every process's subscribers of that app get (LISTEN/NOTIFY). */
    liveEvents: ReturnType<typeof createLiveEvents>
  }
}

/** Cuts an app's events into NOTIFY payloads under the size limit; an event too big on its own is left out. */
export function payloads (appId: string, items: LiveItem[]): string[] {
  const out: string[] = []
  let batch: string[] = []
  let size = 0
  const envelope = (parts: string[]) => `{"appId":${JSON.stringify(appId)},"items":[${parts.join(',')}]}`
  const overhead = envelope([]).length
  for (const item of items) {
    const text = JSON.stringify(item)
    if (Buffer.byteLength(text) + overhead > MAX_PAYLOAD_BYTES) continue
    if (size + Buffer.byteLength(text) + 1 + overhead > MAX_PAYLOAD_BYTES && batch.length > 0) {
      out.push(envelope(batch))
      batch = []
      size = 0
    }
    batch.push(text)
    size += Buffer.byteLength(text) + 1
  }
  if (batch.length > 0) out.push(envelope(batch))
  return out
}

export function createLiveEvents (deps: {
  notify: (channel: string, payload: string) => Promise<void>
  listen: (channel: string, onMessage: (payload: string) => void) => Promise<() => Promise<void>>
  onError: (error: unknown) => void
}) {
  let pending = new Map<string, LiveItem[]>()
  let pendingCount = 0
  const subscribers = new Map<string, Set<LiveSubscriber>>()
  let listening: Promise<() => Promise<void>> | null = null
  let closed = false

  async function flush (): Promise<void> {
    if (pendingCount === 0) return
    const batch = pending
    pending = new Map()
    pendingCount = 0
    for (const [appId, items] of batch) {
      for (const payload of payloads(appId, items)) await deps.notify(LIVE_CHANNEL, payload)
    }
  }
  const timer = setInterval(() => { flush().catch(deps.onError) }, PUBLISH_INTERVAL_MS)
  timer.unref()

  /** Queues an event for the app's subscribers in every process; never waits, never throws. */
  function publish (appId: string, item: LiveItem): void {
    if (closed || pendingCount >= MAX_PENDING) return
    const list = pending.get(appId)
    if (list === undefined) pending.set(appId, [item])
    else list.push(item)
    pendingCount++
  }

  function deliver (payload: string): void {
    let message: { appId: string, items: LiveItem[] }
    try {
      message = JSON.parse(payload)
    } catch {
      return
    }
    for (const subscriber of subscribers.get(message.appId) ?? []) {
      for (const item of message.items) subscriber(item)
    }
  }

  /** The process LISTENs once, when its first subscriber arrives. Resolves once the channel is listened to. */
  async function subscribe (appId: string, subscriber: LiveSubscriber): Promise<() => void> {
    listening ??= deps.listen(LIVE_CHANNEL, deliver)
    await listening
    let set = subscribers.get(appId)
    if (set === undefined) subscribers.set(appId, set = new Set())
    set.add(subscriber)
    return () => {
      set.delete(subscriber)
      if (set.size === 0) subscribers.delete(appId)
    }
  }

  async function close (): Promise<void> {
    closed = true
    clearInterval(timer)
    await flush().catch(deps.onError)
    if (listening !== null) await (await listening)().catch(() => {})
  }

  return { publish, subscribe, flush, close }
}

/** The console's live bus: PGlite and PostgreSQL both carry NOTIFY, so several processes share one tail. */
export default fp(async function liveEventsPlugin (fastify) {
  const live = createLiveEvents({
    notify: fastify.database.notify,
    listen: async (channel, onMessage) => await fastify.database.listen(channel, onMessage),
    onError: (error) => fastify.log.warn({ err: error }, 'live tail publish failed')
  })
  fastify.decorate('liveEvents', live)
  fastify.addHook('preClose', async () => { await live.close() })
}, { name: 'live-events', dependencies: ['db'] })
