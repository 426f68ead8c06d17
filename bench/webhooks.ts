/**
 * Webhook delivery throughput and event-to-delivery latency, one process, to a local receiver that
 * answers 200 at once; on PGlite, then on PostgreSQL (a fresh database bench_wh_<pid>, dropped after)
 * when one is reachable at DATABASE_URL (default postgres://postgres@127.0.0.1:5432/postgres).
 */
import { createServer } from 'node:http'
import { availableParallelism, loadavg } from 'node:os'
import type { AddressInfo } from 'node:net'
import pg from 'pg'
import { buildApp, type App } from '../server/app.ts'
import { loadConfig } from '../server/config.ts'
import { emitEvent } from '../server/events.ts'

const THROUGHPUT_EVENTS = Number(process.env.BENCH_EVENTS ?? 3000)
const EMITTERS = 16
const LATENCY_EVENTS = Number(process.env.BENCH_LATENCY_EVENTS ?? 300)
const LATENCY_RATE_PER_SECOND = 100
const RUN_LIMIT_MS = 60_000
const SERVER_URL = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres'
/** BENCH_ENGINES=pglite or postgres runs one engine only. */
const ENGINES = (process.env.BENCH_ENGINES ?? 'pglite,postgres').split(',')

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))
const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]

async function startReceiver () {
  const arrivals = new Map<string, number>()
  let onArrival: () => void = () => {}
  const server = createServer((request, response) => {
    const chunks: Buffer[] = []
    request.on('data', (c: Buffer) => chunks.push(c))
    request.on('end', () => {
      response.writeHead(200).end()
      const key = (JSON.parse(Buffer.concat(chunks).toString()) as { data: { key: string } }).data.key
      if (!arrivals.has(key)) arrivals.set(key, performance.now())
      onArrival()
    })
  })
  server.keepAliveTimeout = 60_000
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`
  return {
    url,
    arrivals,
    async until (count: number, deadline: number) {
      while (arrivals.size < count && performance.now() < deadline) {
        await new Promise<void>((resolve) => { onArrival = resolve; setTimeout(resolve, 100) })
      }
    },
    close: () => new Promise<void>((resolve) => { server.closeAllConnections(); server.close(() => resolve()) })
  }
}

async function setUp (app: App, url: string): Promise<string> {
  const inject = async (method: 'POST', path: string, payload: unknown, token?: string) => {
    const response = await app.inject({ method, url: path, payload: payload as Record<string, unknown>, headers: token === undefined ? {} : { authorization: `Bearer ${token}` } })
    if (response.statusCode >= 300) throw new Error(`${path}: ${response.statusCode} ${response.body}`)
    return response.json()
  }
  const dev = await inject('POST', '/auth/register', { email: `bench-${process.pid}@example.com`, password: 'correct-horse', name: 'Bench', role: 'DEVELOPER' })
  const created = await inject('POST', '/developer/apps', {
    name: 'Bench', slug: `bench-${process.pid}`, description: 'Bench app.', category: 'analytics', scopes: ['read_products'],
    redirectUrl: 'https://app.example.com/cb', webhookUrl: 'https://app.example.com/hooks'
  }, dev.token)
  const installed = await inject('POST', `/developer/apps/${created.app.id}/test-install`, {}, dev.token)
  await inject('POST', '/webhooks', { url, events: ['product.updated'] }, installed.accessToken)
  return installed.businessId as string
}

async function emit (app: App, businessId: string, key: string): Promise<number> {
  await app.db.transaction(async (tx) => { await emitEvent(tx, { businessId, event: 'product.updated', data: { key } }) })
  return performance.now()
}

async function run (label: string, databaseUrl: string | null): Promise<void> {
  const config = loadConfig({ LOG_LEVEL: 'warn', DEMO_SEED: 'false', ...(databaseUrl !== null ? { DATABASE_URL: databaseUrl } : {}) }, { inMemory: true })
  const app = await buildApp({ config })
  await app.ready()
  const receiver = await startReceiver()
  try {
    const businessId = await setUp(app, receiver.url)
    const deadline = performance.now() + RUN_LIMIT_MS

    // throughput: EMITTERS concurrent writers, from the first commit to the last delivery
    const started = performance.now()
    let next = 0
    await Promise.all(Array.from({ length: EMITTERS }, async () => {
      while (next < THROUGHPUT_EVENTS && performance.now() < deadline) await emit(app, businessId, `t${next++}`)
    }))
    const emitted = next
    await receiver.until(emitted, deadline)
    const elapsed = (Math.max(...receiver.arrivals.values()) - started) / 1000
    const delivered = receiver.arrivals.size

    // latency: a paced stream, commit → arrival at the receiver
    const committed = new Map<string, number>()
    for (let i = 0; i < LATENCY_EVENTS && performance.now() < deadline; i++) {
      committed.set(`l${i}`, await emit(app, businessId, `l${i}`))
      await sleep(1000 / LATENCY_RATE_PER_SECOND)
    }
    await receiver.until(delivered + committed.size, deadline)
    const latencies = [...committed].flatMap(([key, at]) => receiver.arrivals.has(key) ? [receiver.arrivals.get(key)! - at] : []).sort((a, b) => a - b)
    console.log(`${label.padEnd(10)} ${String(delivered).padStart(5)}/${emitted} deliveries in ${elapsed.toFixed(2)} s = ${Math.round(delivered / elapsed)} deliveries/s` +
      ` | event-to-delivery p50 ${percentile(latencies, 50).toFixed(1)} ms, p99 ${percentile(latencies, 99).toFixed(1)} ms (${latencies.length}/${committed.size} at ${LATENCY_RATE_PER_SECOND}/s)`)
  } finally {
    await app.close()
    await receiver.close()
  }
}

async function withServerDatabase (fn: (url: string) => Promise<void>): Promise<boolean> {
  const admin = new pg.Client({ connectionString: SERVER_URL })
  try {
    await admin.connect()
  } catch {
    return false
  }
  const name = `bench_wh_${process.pid}`
  await admin.query(`create database "${name}"`)
  try {
    const url = new URL(SERVER_URL)
    url.pathname = `/${name}`
    await fn(url.toString())
  } finally {
    await admin.query(`drop database if exists "${name}" with (force)`)
    await admin.end()
  }
  return true
}

console.log(`webhook delivery bench: ${THROUGHPUT_EVENTS} events from ${EMITTERS} writers, then ${LATENCY_EVENTS} paced events`)
console.log(`load average ${loadavg().map((n) => n.toFixed(1)).join(' ')} on ${availableParallelism()} cores (other work on the machine lowers deliveries/s)`)
if (ENGINES.includes('pglite')) await run('PGlite', null)
if (ENGINES.includes('postgres') && !await withServerDatabase(async (url) => { await run('PostgreSQL', url) })) console.log('PostgreSQL  skipped: no server at DATABASE_URL')
