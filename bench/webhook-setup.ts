import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { App } from '../server/app.ts'
import { emitEvent } from '../server/events.ts'

/** What bench:webhooks and bench:budget share: the receiver, the business that registered webhooks, an event committed. */

/**
 * A receiver that answers 200 at once and notes when each delivery first arrived: a delivery is the
 * event's data.key and the registration's number (`/hook?r=<n>`), as `<key>#<n>`.
 */
export async function startReceiver () {
  const arrivals = new Map<string, number>()
  /** The keys the current `until` still waits for, and what to call once none is left. */
  let waiting = new Set<string>()
  let onLast: () => void = () => {}
  const server = createServer((req, response) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      response.writeHead(200).end()
      const registration = new URL(req.url ?? '/', 'http://receiver').searchParams.get('r') ?? '0'
      const key = `${(JSON.parse(Buffer.concat(chunks).toString()) as { data: { key: string } }).data.key}#${registration}`
      if (!arrivals.has(key)) arrivals.set(key, performance.now())
      // one look per arrival: the bench's own work stays small beside the pipeline it measures
      if (waiting.delete(key) && waiting.size === 0) onLast()
    })
  })
  server.keepAliveTimeout = 60_000
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`
  return {
    url,
    arrivals,
    /** Waits until every key has arrived (or the deadline); answers how many did and when the last one came. */
    async until (keys: string[], deadline: number): Promise<{ arrived: number, last: number }> {
      waiting = new Set(keys.filter((key) => !arrivals.has(key)))
      if (waiting.size > 0) {
        let timer: NodeJS.Timeout | undefined
        await new Promise<void>((resolve) => {
          onLast = resolve
          timer = setTimeout(resolve, Math.max(0, deadline - performance.now()))
        })
        clearTimeout(timer)
        waiting = new Set()
        onLast = () => {}
      }
      const times = keys.flatMap((key) => arrivals.has(key) ? [arrivals.get(key)!] : [])
      return { arrived: times.length, last: Math.max(...times) }
    },
    close: () => new Promise<void>((resolve) => { server.closeAllConnections(); server.close(() => resolve()) })
  }
}
export type Receiver = Awaited<ReturnType<typeof startReceiver>>

/** A developer's sandbox business whose app registered `registrations` webhooks (`<url>?r=0…`) for product.updated. */
export async function setUp (app: App, url: string, registrations: number): Promise<string> {
  const inject = async (method: 'POST', path: string, payload: unknown, token?: string) => {
    const response = await app.inject({ method, url: path, payload: payload as Record<string, unknown>, headers: token === undefined ? {} : { authorization: `Bearer ${token}` } })
    if (response.statusCode >= 300) throw new Error(`${path}: ${response.statusCode} ${response.body}`)
    return response.json()
  }
  const name = `bench-${process.pid}-${registrations}`
  const dev = await inject('POST', '/auth/register', { email: `${name}@example.com`, password: 'correct-horse', name: 'Bench', role: 'DEVELOPER' })
  const created = await inject('POST', '/developer/apps', {
    name: 'Bench', slug: name, description: 'Bench app.', category: 'analytics', scopes: ['read_products'],
    redirectUrl: 'https://app.example.com/cb', webhookUrl: 'https://app.example.com/hooks'
  }, dev.token)
  const installed = await inject('POST', `/developer/apps/${created.app.id}/test-install`, {}, dev.token)
  for (let r = 0; r < registrations; r++) await inject('POST', '/webhooks', { url: `${url}?r=${r}`, events: ['product.updated'] }, installed.accessToken)
  return installed.businessId as string
}

/**
 * BENCH_EMIT=transaction: each event in a transaction of its own (BEGIN, the insert, COMMIT), as the
 * benches measured until 2026-11-29.
 */
const EMIT_IN_TRANSACTION = process.env.BENCH_EMIT === 'transaction'

/**
 * One event committed through the outbox: by default what an event adds to the change that raises it,
 * the outbox insert, here its own statement (a change's transaction, its BEGIN and COMMIT, is the
 * change's, which the BullMQ peer's producer does not pay either: it pushes one job). Answers when it
 * committed.
 */
export async function emit (app: App, businessId: string, key: string): Promise<number> {
  const event = { businessId, event: 'product.updated' as const, data: { key } }
  if (EMIT_IN_TRANSACTION) await app.db.transaction(async (tx) => { await emitEvent(tx, event) })
  else await emitEvent(app.db, event)
  return performance.now()
}
