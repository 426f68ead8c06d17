/**
 * npm run bench:webhooks: webhook fan-out, one process, to a local receiver that answers 200 at once,
 * on PGlite and then on PostgreSQL (a fresh database bench_wh_<pid>, dropped after) when one is
 * reachable at DATABASE_URL (default postgres://postgres@127.0.0.1:5432/postgres).
 *
 * Each round measures, one after the other against the same receiver:
 * - the platform: events committed through the outbox by 16 writers, until the last delivery arrives;
 * - the wire: the same number of signed JSON POSTs sent straight from this process (16 connections),
 *   the most any delivery pipeline in one Node.js process could reach here;
 * - the peer (PostgreSQL with Redis at REDIS_URL, default redis://127.0.0.1:6379): what a Node.js team
 *   would build instead, a BullMQ queue whose worker signs and POSTs and writes a delivery-log row
 *   per attempt in PostgreSQL.
 * Then a paced stream (BENCH_LATENCY_RATE events/s) measures event-to-delivery latency. Medians over
 * BENCH_ROUNDS rounds with their range; BENCH_JSON=path writes the figures (bench/stats.ts).
 */
import { createServer } from 'node:http'
import { randomUUID } from 'node:crypto'
import type { AddressInfo } from 'node:net'
import pg from 'pg'
import { Pool as HttpPool, request } from 'undici'
import { buildApp, type App } from '../server/app.ts'
import { loadConfig } from '../server/config.ts'
import { emitEvent } from '../server/events.ts'
import { signature, unixSeconds, USER_AGENT } from '../server/signing.ts'
import { withScratchDatabase } from './database.ts'
import { aim, describeMachine, formatSpread, printAims, ROUNDS, spread, writeJson, type Aim, type Spread } from './stats.ts'

const THROUGHPUT_EVENTS = Number(process.env.BENCH_EVENTS ?? 3000)
const WRITERS = 16
const LATENCY_EVENTS = Number(process.env.BENCH_LATENCY_EVENTS ?? 1000)
const LATENCY_RATE_PER_SECOND = Number(process.env.BENCH_LATENCY_RATE ?? 1000)
const RUN_LIMIT_MS = 60_000
const SERVER_URL = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres'
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379'
/** BENCH_ENGINES=pglite or postgres runs one engine only; BENCH_PEER=false skips the BullMQ peer. */
const ENGINES = (process.env.BENCH_ENGINES ?? 'pglite,postgres').split(',')
const PEER = process.env.BENCH_PEER !== 'false'
const SECRET = 'whsec_bench_reference_secret'

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))
const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]

/** A receiver that answers 200 at once and notes when each key first arrived. */
async function startReceiver () {
  const arrivals = new Map<string, number>()
  let onArrival: () => void = () => {}
  const server = createServer((req, response) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
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
    /** Waits until every key has arrived (or the deadline); answers how many did and when the last one came. */
    async until (keys: string[], deadline: number): Promise<{ arrived: number, last: number }> {
      while (keys.some((key) => !arrivals.has(key)) && performance.now() < deadline) {
        await new Promise<void>((resolve) => { onArrival = resolve; setTimeout(resolve, 100) })
      }
      const times = keys.flatMap((key) => arrivals.has(key) ? [arrivals.get(key)!] : [])
      return { arrived: times.length, last: Math.max(...times) }
    },
    close: () => new Promise<void>((resolve) => { server.closeAllConnections(); server.close(() => resolve()) })
  }
}
type Receiver = Awaited<ReturnType<typeof startReceiver>>

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

/** `count` jobs run by `WRITERS` concurrent workers; answers when the last one was started. */
async function inParallel (count: number, deadline: number, job: (index: number) => Promise<unknown>): Promise<number> {
  let next = 0
  await Promise.all(Array.from({ length: WRITERS }, async () => {
    while (next < count && performance.now() < deadline) await job(next++)
  }))
  return next
}

/** The body and headers a delivery carries, signed the way the platform signs. */
function signedPost (key: string) {
  const body = JSON.stringify({ id: randomUUID(), event: 'product.updated', businessId: 'bench', createdAt: new Date().toISOString(), data: { key } })
  const timestamp = unixSeconds()
  return {
    body,
    headers: {
      'content-type': 'application/json', 'user-agent': USER_AGENT, 'x-service-event': 'product.updated', 'x-service-timestamp': String(timestamp),
      'x-service-signature': `sha256=${signature(SECRET, timestamp, body)}`
    }
  }
}

/** Deliveries per second over one run: from the first write to the last arrival. */
interface Run { delivered: number, of: number, perSecond: number }
const rate = (keys: string[], started: number, result: { arrived: number, last: number }): Run =>
  ({ delivered: result.arrived, of: keys.length, perSecond: result.arrived === 0 ? 0 : result.arrived / ((result.last - started) / 1000) })

async function platformRun (app: App, businessId: string, receiver: Receiver, round: number): Promise<Run> {
  const deadline = performance.now() + RUN_LIMIT_MS
  const started = performance.now()
  const keys: string[] = []
  await inParallel(THROUGHPUT_EVENTS, deadline, async (i) => { keys.push(`p${round}-${i}`); await emit(app, businessId, `p${round}-${i}`) })
  return rate(keys, started, await receiver.until(keys, deadline))
}

async function wireRun (receiver: Receiver, round: number): Promise<Run> {
  const target = new URL(receiver.url)
  const pool = new HttpPool(target.origin, { connections: WRITERS, pipelining: 1 })
  try {
    const deadline = performance.now() + RUN_LIMIT_MS
    const started = performance.now()
    const keys: string[] = []
    await inParallel(THROUGHPUT_EVENTS, deadline, async (i) => {
      const key = `w${round}-${i}`
      keys.push(key)
      const { body, headers } = signedPost(key)
      const response = await request(receiver.url, { method: 'POST', body, headers, dispatcher: pool })
      await response.body.dump()
    })
    return rate(keys, started, await receiver.until(keys, deadline))
  } finally {
    await pool.close()
  }
}

/** The peer: a BullMQ queue on Redis, a worker (16 at a time) that signs, POSTs and logs each attempt in PostgreSQL. */
async function startPeer (databaseUrl: string, receiver: Receiver) {
  const { Queue, Worker } = await import('bullmq')
  const connection = { url: REDIS_URL, maxRetriesPerRequest: null }
  const name = `bench-webhooks-${process.pid}`
  const db = new pg.Pool({ connectionString: databaseUrl, max: WRITERS })
  await db.query('create table if not exists peer_delivery_log (id bigserial primary key, event_key text not null, status integer, duration_ms integer not null, created_at timestamptz not null default now())')
  const http = new HttpPool(new URL(receiver.url).origin, { connections: WRITERS, pipelining: 1 })
  const queue = new Queue(name, { connection })
  const worker = new Worker(name, async (job) => {
    const started = performance.now()
    const { body, headers } = signedPost(job.data.key as string)
    const response = await request(receiver.url, { method: 'POST', body, headers, dispatcher: http })
    await response.body.dump()
    await db.query('insert into peer_delivery_log (event_key, status, duration_ms) values ($1, $2, $3)', [job.data.key, response.statusCode, Math.round(performance.now() - started)])
    if (response.statusCode >= 300) throw new Error(`HTTP ${response.statusCode}`)
  }, { connection, concurrency: WRITERS })
  return {
    async run (round: number): Promise<Run> {
      const deadline = performance.now() + RUN_LIMIT_MS
      const started = performance.now()
      const keys: string[] = []
      await inParallel(THROUGHPUT_EVENTS, deadline, async (i) => {
        keys.push(`q${round}-${i}`)
        await queue.add('deliver', { key: `q${round}-${i}` }, { attempts: 8, backoff: { type: 'exponential', delay: 1000 }, removeOnComplete: true })
      })
      return rate(keys, started, await receiver.until(keys, deadline))
    },
    async close () {
      await worker.close()
      await queue.obliterate({ force: true })
      await queue.close()
      await http.close()
      await db.end()
    }
  }
}

async function redisReachable (): Promise<boolean> {
  const { Redis } = await import('ioredis')
  const client = new Redis(REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null })
  client.on('error', () => {})
  try {
    await client.connect()
    await client.ping()
    return true
  } catch {
    return false
  } finally {
    client.disconnect()
  }
}

/** A paced stream, `LATENCY_RATE_PER_SECOND` events a second, each from its commit to its arrival. */
async function latencyRun (app: App, businessId: string, receiver: Receiver) {
  const deadline = performance.now() + RUN_LIMIT_MS
  const committed = new Map<string, number>()
  const writes: Array<Promise<void>> = []
  const started = performance.now()
  for (let i = 0; i < LATENCY_EVENTS && performance.now() < deadline; i++) {
    const due = started + (i * 1000) / LATENCY_RATE_PER_SECOND
    const wait = due - performance.now()
    if (wait > 1) await sleep(wait)
    const key = `l${i}`
    writes.push(emit(app, businessId, key).then((at) => { committed.set(key, at) }))
  }
  await Promise.all(writes)
  await receiver.until([...committed.keys()], deadline)
  const latencies = [...committed].flatMap(([key, at]) => receiver.arrivals.has(key) ? [receiver.arrivals.get(key)! - at] : []).sort((a, b) => a - b)
  return { p50: percentile(latencies, 50), p99: percentile(latencies, 99), arrived: latencies.length, of: committed.size }
}

interface EngineFigures {
  engine: string, platform: Spread, wire: Spread, ratio: Spread, peer: Spread | null, lost: number, latency: Awaited<ReturnType<typeof latencyRun>>
}

async function run (engine: 'PGlite' | 'PostgreSQL', databaseUrl: string | null): Promise<EngineFigures> {
  const config = loadConfig({ LOG_LEVEL: 'warn', DEMO_SEED: 'false', ...(databaseUrl !== null ? { DATABASE_URL: databaseUrl } : {}) }, { inMemory: true })
  const app = await buildApp({ config })
  await app.ready()
  const receiver = await startReceiver()
  const peer = databaseUrl !== null && PEER && await redisReachable() ? await startPeer(databaseUrl, receiver) : null
  try {
    const businessId = await setUp(app, receiver.url)
    const rounds: Array<{ platform: Run, wire: Run, peer: Run | null }> = []
    for (let round = 0; round < ROUNDS; round++) {
      const platform = await platformRun(app, businessId, receiver, round)
      const wire = await wireRun(receiver, round)
      rounds.push({ platform, wire, peer: peer === null ? null : await peer.run(round) })
    }
    const latency = await latencyRun(app, businessId, receiver)
    return {
      engine,
      platform: spread(rounds.map((r) => r.platform.perSecond)),
      wire: spread(rounds.map((r) => r.wire.perSecond)),
      ratio: spread(rounds.map((r) => 100 * r.platform.perSecond / r.wire.perSecond)),
      peer: peer === null ? null : spread(rounds.map((r) => r.peer!.perSecond)),
      lost: rounds.reduce((sum, r) => sum + r.platform.of - r.platform.delivered, 0),
      latency
    }
  } finally {
    await peer?.close()
    await app.close()
    await receiver.close()
  }
}

console.log(`webhook delivery bench: ${THROUGHPUT_EVENTS} events from ${WRITERS} writers per run, then ${LATENCY_EVENTS} events paced at ${LATENCY_RATE_PER_SECOND}/s`)
const results: EngineFigures[] = []
if (ENGINES.includes('pglite')) results.push(await run('PGlite', null))
if (ENGINES.includes('postgres')) {
  const figures = await withScratchDatabase(SERVER_URL, `bench_wh_${process.pid}`, async (url) => await run('PostgreSQL', url))
  if (figures === null) console.log('PostgreSQL  skipped: no server at DATABASE_URL')
  else results.push(figures)
}

console.log(`\n${describeMachine()}; deliveries/s as median (min–max) over the rounds\n`)
console.log(`${''.padEnd(12)} ${'platform/s'.padStart(20)} ${'signed POSTs/s'.padStart(20)} ${'platform / wire'.padStart(20)} ${'BullMQ peer/s'.padStart(20)} ${'lost'.padStart(5)}  event-to-delivery`)
const aims: Aim[] = []
for (const f of results) {
  console.log(`${f.engine.padEnd(12)} ${formatSpread(f.platform).padStart(20)} ${formatSpread(f.wire).padStart(20)} ${formatSpread(f.ratio, 1, '%').padStart(20)} ` +
    `${(f.peer === null ? 'not run' : formatSpread(f.peer)).padStart(20)} ${String(f.lost).padStart(5)}  ` +
    `p50 ${f.latency.p50.toFixed(1)} ms, p99 ${f.latency.p99.toFixed(1)} ms (${f.latency.arrived}/${f.latency.of} at ${LATENCY_RATE_PER_SECOND}/s)`)
  if (f.engine === 'PostgreSQL') {
    aims.push(aim('PostgreSQL ≥ 4 000 deliveries/s from one process', f.platform.median >= 4000, formatSpread(f.platform)))
    aims.push(aim('PostgreSQL ≥ 35 % of the signed-POST rate', f.ratio.median >= 35, formatSpread(f.ratio, 1, '%')))
    aims.push(aim(`event-to-delivery p99 < 50 ms at ${LATENCY_RATE_PER_SECOND} events/s`, f.latency.p99 < 50 && LATENCY_RATE_PER_SECOND >= 1000, `${f.latency.p99.toFixed(1)} ms`))
  } else {
    aims.push(aim('PGlite ≥ 1 000 deliveries/s', f.platform.median >= 1000, formatSpread(f.platform)))
  }
}
console.log('')
printAims(aims)
writeJson('webhooks', { events: THROUGHPUT_EVENTS, writers: WRITERS, latencyEvents: LATENCY_EVENTS, latencyRate: LATENCY_RATE_PER_SECOND, results }, aims)
