/**
 * npm run bench:webhooks: webhook fan-out, one process, to a local receiver that answers 200 at once,
 * on PGlite and then on PostgreSQL (a fresh database bench_wh_<pid>, dropped after) when one is
 * reachable at DATABASE_URL (default postgres://postgres@127.0.0.1:5432/postgres).
 *
 * Each round measures, one after the other against the same receiver, BENCH_EVENTS deliveries:
 * - the platform, twice: events committed through the outbox by 16 writers in a business whose app
 *   registered one webhook, and in one whose app registered BENCH_FANOUT (each event fans out to
 *   all of them), until the last delivery arrives;
 * - the wire: as many signed JSON POSTs sent straight from this process (16 connections), the most
 *   any delivery pipeline in one Node.js process could reach here;
 * - the peer (PostgreSQL with Redis at REDIS_URL, default redis://127.0.0.1:6379) at both fan-outs:
 *   what a Node.js team would build instead, a BullMQ queue (one job per delivery) whose worker signs
 *   and POSTs and writes a delivery-log row per attempt in PostgreSQL.
 * Then a paced stream (BENCH_LATENCY_RATE events/s, one registration) measures event-to-delivery
 * latency. Medians over BENCH_ROUNDS rounds with their range; BENCH_JSON=path writes the figures.
 */
import { randomUUID } from 'node:crypto'
import pg from 'pg'
import { Pool as HttpPool, request } from 'undici'
import { buildApp, type App } from '../server/app.ts'
import { loadConfig } from '../server/config.ts'
import { signature, unixSeconds, USER_AGENT } from '../server/signing.ts'
import { withScratchDatabase } from './database.ts'
import { emit, setUp, startReceiver, type Receiver } from './webhook-setup.ts'
import { aim, describeMachine, figure, formatSpread, percentile, printAims, ROUNDS, spread, writeJson, type Aim, type Spread } from './stats.ts'

/** Deliveries per run, whatever the fan-out. */
const THROUGHPUT_DELIVERIES = Number(process.env.BENCH_EVENTS ?? 8000)
/** Registrations each event of the fan-out run goes to. */
const FANOUT = Math.max(1, Number(process.env.BENCH_FANOUT ?? 8))
const FANOUTS = FANOUT === 1 ? [1] : [1, FANOUT]
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
  const timestamp = unixSeconds(new Date())
  return {
    body,
    headers: {
      'content-type': 'application/json', 'user-agent': USER_AGENT, 'x-service-event': 'product.updated', 'x-service-timestamp': String(timestamp),
      'x-service-signature': `sha256=${signature(SECRET, timestamp, body)}`
    }
  }
}

/** Deliveries per second over one run: from the first write to the last arrival. */
interface Run { delivered: number, of: number, perSecond: number, whileWriting?: number }
const rate = (keys: string[], started: number, result: { arrived: number, last: number }): Run =>
  ({ delivered: result.arrived, of: keys.length, perSecond: result.arrived === 0 ? 0 : result.arrived / ((result.last - started) / 1000) })

/** The deliveries of the events keyed `key` at a fan-out. */
const deliveriesOf = (key: string, fanout: number) => Array.from({ length: fanout }, (_, r) => `${key}#${r}`)
const eventsFor = (fanout: number) => Math.max(1, Math.round(THROUGHPUT_DELIVERIES / fanout))

async function platformRun (app: App, businessId: string, fanout: number, receiver: Receiver, label: string): Promise<Run> {
  const deadline = performance.now() + RUN_LIMIT_MS
  const started = performance.now()
  const keys: string[] = []
  await inParallel(eventsFor(fanout), deadline, async (i) => { keys.push(...deliveriesOf(`${label}-${i}`, fanout)); await emit(app, businessId, `${label}-${i}`) })
  // a pipeline that only gets its turns once the writers stop starves; one that shares the CPU delivers meanwhile
  const whileWriting = 100 * keys.filter((key) => receiver.arrivals.has(key)).length / keys.length
  return { ...rate(keys, started, await receiver.until(keys, deadline)), whileWriting }
}

async function wireRun (receiver: Receiver, round: number): Promise<Run> {
  const target = new URL(receiver.url)
  const pool = new HttpPool(target.origin, { connections: WRITERS, pipelining: 1 })
  try {
    const deadline = performance.now() + RUN_LIMIT_MS
    const started = performance.now()
    const keys: string[] = []
    await inParallel(THROUGHPUT_DELIVERIES, deadline, async (i) => {
      const key = `w${round}-${i}`
      keys.push(`${key}#0`)
      const { body, headers } = signedPost(key)
      const response = await request(`${receiver.url}?r=0`, { method: 'POST', body, headers, dispatcher: pool })
      await response.body.dump()
    })
    return rate(keys, started, await receiver.until(keys, deadline))
  } finally {
    await pool.close()
  }
}

/** The peer: a BullMQ queue on Redis (a job per delivery), a worker (16 at a time) that signs, POSTs and logs each attempt in PostgreSQL. */
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
    const response = await request(`${receiver.url}?r=${job.data.r as number}`, { method: 'POST', body, headers, dispatcher: http })
    await response.body.dump()
    await db.query('insert into peer_delivery_log (event_key, status, duration_ms) values ($1, $2, $3)', [job.data.key, response.statusCode, Math.round(performance.now() - started)])
    if (response.statusCode >= 300) throw new Error(`HTTP ${response.statusCode}`)
  }, { connection, concurrency: WRITERS })
  return {
    /** Each event enqueues one job per registration, as a team would fan out. */
    async run (fanout: number, label: string): Promise<Run> {
      const deadline = performance.now() + RUN_LIMIT_MS
      const started = performance.now()
      const keys: string[] = []
      const options = { attempts: 8, backoff: { type: 'exponential', delay: 1000 }, removeOnComplete: true }
      await inParallel(eventsFor(fanout), deadline, async (i) => {
        const key = `${label}-${i}`
        keys.push(...deliveriesOf(key, fanout))
        await queue.addBulk(Array.from({ length: fanout }, (_, r) => ({ name: 'deliver', data: { key, r }, opts: options })))
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
  const arrival = (key: string) => receiver.arrivals.get(`${key}#0`)
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
  await receiver.until([...committed.keys()].map((key) => `${key}#0`), deadline)
  const latencies = [...committed].flatMap(([key, at]) => arrival(key) !== undefined ? [arrival(key)! - at] : []).sort((a, b) => a - b)
  return { p50: percentile(latencies, 0.5), p99: percentile(latencies, 0.99), arrived: latencies.length, of: committed.size }
}

interface FanoutFigures { fanout: number, platform: Spread, ratio: Spread, peer: Spread | null, lost: number, whileWriting: Spread }
interface EngineFigures { engine: string, wire: Spread, fanouts: FanoutFigures[], latency: Awaited<ReturnType<typeof latencyRun>> }

async function run (engine: 'PGlite' | 'PostgreSQL', databaseUrl: string | null): Promise<EngineFigures> {
  const config = loadConfig({ LOG_LEVEL: 'warn', DEMO_SEED: 'false', ...(databaseUrl !== null ? { DATABASE_URL: databaseUrl } : {}) }, { inMemory: true })
  const app = await buildApp({ config })
  await app.ready()
  const receiver = await startReceiver()
  const peer = databaseUrl !== null && PEER && await redisReachable() ? await startPeer(databaseUrl, receiver) : null
  try {
    const businesses = new Map<number, string>()
    for (const fanout of FANOUTS) businesses.set(fanout, await setUp(app, receiver.url, fanout))
    const rounds: Array<{ wire: Run, platform: Map<number, Run>, peer: Map<number, Run> }> = []
    for (let round = 0; round < ROUNDS; round++) {
      const platform = new Map<number, Run>()
      const peerRuns = new Map<number, Run>()
      for (const fanout of FANOUTS) platform.set(fanout, await platformRun(app, businesses.get(fanout)!, fanout, receiver, `p${round}x${fanout}`))
      const wire = await wireRun(receiver, round)
      if (peer !== null) for (const fanout of FANOUTS) peerRuns.set(fanout, await peer.run(fanout, `q${round}x${fanout}`))
      rounds.push({ wire, platform, peer: peerRuns })
    }
    const latency = await latencyRun(app, businesses.get(1)!, receiver)
    return {
      engine,
      wire: spread(rounds.map((r) => r.wire.perSecond)),
      fanouts: FANOUTS.map((fanout) => ({
        fanout,
        platform: spread(rounds.map((r) => r.platform.get(fanout)!.perSecond)),
        ratio: spread(rounds.map((r) => 100 * r.platform.get(fanout)!.perSecond / r.wire.perSecond)),
        peer: peer === null ? null : spread(rounds.map((r) => r.peer.get(fanout)!.perSecond)),
        lost: rounds.reduce((sum, r) => sum + r.platform.get(fanout)!.of - r.platform.get(fanout)!.delivered, 0),
        whileWriting: spread(rounds.map((r) => r.platform.get(fanout)!.whileWriting ?? Number.NaN))
      })),
      latency
    }
  } finally {
    await peer?.close()
    await app.close()
    await receiver.close()
  }
}

console.log(`webhook delivery bench: ${THROUGHPUT_DELIVERIES} deliveries from ${WRITERS} writers per run, each event to ${FANOUTS.join(' and to ')} registrations; ` +
  `then ${LATENCY_EVENTS} events paced at ${LATENCY_RATE_PER_SECOND}/s`)
const results: EngineFigures[] = []
if (ENGINES.includes('pglite')) results.push(await run('PGlite', null))
if (ENGINES.includes('postgres')) {
  const figures = await withScratchDatabase(SERVER_URL, `bench_wh_${process.pid}`, async (url) => await run('PostgreSQL', url))
  if (figures === null) console.log('PostgreSQL  skipped: no server at DATABASE_URL')
  else results.push(figures)
}

console.log(`\n${describeMachine()}; deliveries/s as median (min–max) over the rounds\n`)
console.log(`${''.padEnd(16)} ${'platform/s'.padStart(20)} ${'signed POSTs/s'.padStart(20)} ${'platform / wire'.padStart(20)} ${'BullMQ peer/s'.padStart(20)} ${'lost'.padStart(5)}`)
const aims: Aim[] = []
const fanoutLabel = (fanout: number) => `×${fanout} webhook${fanout === 1 ? '' : 's'}`
for (const f of results) {
  for (const row of f.fanouts) {
    console.log(`${`${f.engine} ${fanoutLabel(row.fanout)}`.padEnd(16)} ${formatSpread(row.platform).padStart(20)} ${formatSpread(f.wire).padStart(20)} ` +
      `${formatSpread(row.ratio, 1, '%').padStart(20)} ${(row.peer === null ? 'not run' : formatSpread(row.peer)).padStart(20)} ${String(row.lost).padStart(5)}`)
  }
  console.log(`${`${f.engine} delivered while the writers wrote`.padEnd(16)} ${f.fanouts.map((row) => `${fanoutLabel(row.fanout)} ${formatSpread(row.whileWriting, 0, ' %')}`).join(', ')}`)
  console.log(`${`${f.engine} latency`.padEnd(16)} event-to-delivery p50 ${figure(f.latency.p50, 1, ' ms')}, p99 ${figure(f.latency.p99, 1, ' ms')} ` +
    `(${f.latency.arrived}/${f.latency.of} at ${LATENCY_RATE_PER_SECOND}/s, one webhook)`)
  const lone = f.fanouts[0]
  const widest = f.fanouts[f.fanouts.length - 1]
  const at = (row: FanoutFigures) => `(${fanoutLabel(row.fanout)} per event)`
  // #44's aims: the peer measured in the same run, the wire of the same process
  if (f.engine === 'PostgreSQL') {
    if (lone.peer !== null) {
      const ratio = lone.platform.median / lone.peer.median
      aims.push(aim(`PostgreSQL ≥ 1.2× the BullMQ peer ${at(lone)}`, ratio >= 1.2, `${ratio.toFixed(2)}× (${formatSpread(lone.platform)} against ${formatSpread(lone.peer)})`))
    }
    if (widest !== lone) {
      aims.push(aim(`PostgreSQL ≥ 6 000 deliveries/s from one process ${at(widest)}`, widest.platform.median >= 6000, formatSpread(widest.platform)))
      aims.push(aim(`PostgreSQL ≥ 40 % of the signed-POST rate ${at(widest)}`, widest.ratio.median >= 40, formatSpread(widest.ratio, 1, '%')))
    }
    aims.push(aim(`event-to-delivery p99 < 50 ms at ${LATENCY_RATE_PER_SECOND} events/s`, f.latency.p99 < 50 && LATENCY_RATE_PER_SECOND >= 1000, figure(f.latency.p99, 1, ' ms')))
  } else {
    aims.push(aim(`PGlite ≥ 1 000 deliveries/s ${at(lone)}`, lone.platform.median >= 1000, formatSpread(lone.platform)))
  }
}
console.log('')
printAims(aims)
writeJson('webhooks', { deliveries: THROUGHPUT_DELIVERIES, fanouts: FANOUTS, writers: WRITERS, latencyEvents: LATENCY_EVENTS, latencyRate: LATENCY_RATE_PER_SECOND, results }, aims)
