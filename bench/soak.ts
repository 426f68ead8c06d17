import { createServer, type Server } from 'node:http'
import { once } from 'node:events'
import { mkdtempSync, rmSync } from 'node:fs'
import { loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import type { AddressInfo } from 'node:net'
import { monitorEventLoopDelay } from 'node:perf_hooks'
import { Agent, request } from 'undici'
import { buildApp, type App } from '../server/app.ts'
import { loadConfig } from '../server/config.ts'
import { listenerTimeouts } from '../server/listener.ts'
import { withScratchDatabase } from './database.ts'
import { aim, figure, machine, printAims, writeJson } from './stats.ts'

/**
 * The soak (issue #28 item 8): one process under a steady mixed load for SOAK_SECONDS (900), sampled
 * every SOAK_SAMPLE_SECONDS (30): resident memory, the live heap (after a full GC when node runs with
 * --expose-gc, as `npm run bench:soak` does), external memory and the event loop's delay (p50, p99 and
 * max over the interval). The load, paced per second over real HTTP on both listeners: SOAK_READS App
 * API reads (order list, product list, one order by id, in turn) and SOAK_ORDERS storefront orders, each
 * order quoting and running a shipping-rates hook and a discounts hook of the app and causing an
 * order.created webhook delivery, all to local receivers. The trend is taken after SOAK_WARMUP_SECONDS
 * (180): the growth from the first sample after warm-up to the mean of the last three, and the slope per
 * ten minutes of a least-squares line through every sample after warm-up. More than 10 % growth after
 * warm-up is the issue's bug line. PGlite keeps its data in a temporary folder on disk (an in-memory
 * database would grow with the data it holds, which is not a leak); BENCH_DATABASE_URL runs it on
 * PostgreSQL instead (a scratch database, dropped afterwards).
 */
const SECONDS = Number(process.env.SOAK_SECONDS ?? 900)
const SAMPLE_SECONDS = Number(process.env.SOAK_SAMPLE_SECONDS ?? 30)
const WARMUP_SECONDS = Number(process.env.SOAK_WARMUP_SECONDS ?? 180)
const READS_PER_SECOND = Number(process.env.SOAK_READS ?? 40)
const ORDERS_PER_SECOND = Number(process.env.SOAK_ORDERS ?? 4)
/** Requests in flight at most; a second whose requests would pass it is counted as skipped work (the machine fell behind). */
const MAX_IN_FLIGHT = Number(process.env.SOAK_MAX_IN_FLIGHT ?? 64)
const SERVER_URL = process.env.BENCH_DATABASE_URL ?? null
const REVIEWER = { email: 'soak-reviewer@example.com', password: 'soak-password' }
const MB = 1024 * 1024

interface Sample {
  at: number
  rssMb: number
  heapMb: number
  externalMb: number
  loopP50Ms: number
  loopP99Ms: number
  loopMaxMs: number
  reads: number
  orders: number
  deliveries: number
  hookCalls: number
  errors: number
  skipped: number
  /** the machine's one-minute load average */
  load: number
}

/** Counters the load and the receivers bump; read and reset at each sample (no per-request state is kept). */
const NO_COUNTS = { reads: 0, orders: 0, deliveries: 0, hookCalls: 0, errors: 0, skipped: 0 }
const tally = { ...NO_COUNTS, inFlight: 0 }
/** Zeroes the counts of a sample (what is in flight stays counted). */
const resetCounts = (): void => { Object.assign(tally, NO_COUNTS) }
const firstErrors: string[] = []

function noteError (what: string): void {
  tally.errors++
  if (firstErrors.length < 5) firstErrors.push(what)
}

/** The app's side: answers its hooks at once and counts the webhook deliveries it receives. */
async function startAppReceiver (): Promise<{ server: Server, url: string }> {
  const server = createServer((req, res) => {
    req.resume()
    req.on('end', () => {
      res.setHeader('content-type', 'application/json')
      if (req.url === '/rates') { tally.hookCalls++; res.end('{"fee":250}'); return }
      if (req.url === '/discounts') { tally.hookCalls++; res.end('{"discount":100,"reason":"Soak"}'); return }
      tally.deliveries++
      res.end('{}')
    })
  })
  server.keepAliveTimeout = 60_000
  server.listen(0, '127.0.0.1')
  await once(server, 'listening')
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` }
}

async function json (app: App, method: 'GET' | 'POST' | 'PUT', url: string, auth: string | null, payload?: unknown) {
  const inject = url.startsWith('/store/') ? app.storefront.inject : app.inject.bind(app)
  const response = await inject({ method, url, headers: auth === null ? {} : { authorization: auth }, payload: payload as any })
  if (response.statusCode >= 300) throw new Error(`${method} ${url}: ${response.statusCode} ${response.body}`)
  return response.json()
}

/** A store with a product, and one approved app installed on it with two hooks and an order.created webhook. */
async function setUp (app: App, receiverUrl: string) {
  const merchantBody = await json(app, 'POST', '/auth/register', null, { email: `soak-merchant-${process.pid}@example.com`, password: 'soak-password', name: 'Soak', role: 'MERCHANT', businessName: 'Soak store' })
  const merchant = `Bearer ${merchantBody.token as string}`
  const me = await json(app, 'GET', '/auth/me', merchant)
  const product = await json(app, 'POST', '/merchant/products', merchant, { name: 'Pizza', price: 1200, stock: 1_000_000 })
  const developer = `Bearer ${(await json(app, 'POST', '/auth/register', null, { email: `soak-dev-${process.pid}@example.com`, password: 'soak-password', name: 'Dev', role: 'DEVELOPER' })).token as string}`
  const reviewer = `Bearer ${(await json(app, 'POST', '/auth/login', null, REVIEWER)).token as string}`
  const created = await json(app, 'POST', '/developer/apps', developer, {
    name: 'Soak app', slug: `soak-app-${process.pid}`, description: 'The soak\'s app.', category: 'other',
    scopes: ['read_orders', 'read_products', 'write_shipping', 'write_discounts'], redirectUrl: 'https://app.example.com/cb', webhookUrl: receiverUrl
  })
  const appId = created.app.id as string
  await json(app, 'PUT', `/developer/apps/${appId}/manifest`, developer, {
    manifest: { hooks: [{ hookPoint: 'checkout.shipping_rates', url: '/rates' }, { hookPoint: 'order.calculate_discounts', url: '/discounts' }] }
  })
  await json(app, 'POST', `/developer/apps/${appId}/submit`, developer)
  await json(app, 'POST', `/review/apps/${appId}/approve`, reviewer, {})
  const consent = await json(app, 'POST', '/oauth/authorize', merchant, { response_type: 'code', client_id: created.app.clientId, redirect_uri: 'https://app.example.com/cb', decision: 'approve' })
  const token = await app.inject({
    method: 'POST', url: '/oauth/token',
    headers: { authorization: `Basic ${Buffer.from(`${created.app.clientId as string}:${created.clientSecret as string}`).toString('base64')}` },
    payload: { grant_type: 'authorization_code', code: new URL(consent.redirectTo as string).searchParams.get('code'), redirect_uri: 'https://app.example.com/cb' }
  })
  const accessToken = token.json().access_token as string
  await json(app, 'POST', '/webhooks', `Bearer ${accessToken}`, { url: `${receiverUrl}/events`, events: ['order.created'] })
  return { slug: me.business.slug as string, productId: product.id as string, accessToken }
}

async function soak (label: string, databaseUrl: string | null) {
  const dataDir = databaseUrl === null ? mkdtempSync(join(tmpdir(), 'soak-')) : null
  const config = loadConfig({
    LOG_LEVEL: 'silent', DEMO_SEED: 'false', REVIEWER_EMAIL: REVIEWER.email, REVIEWER_PASSWORD: REVIEWER.password,
    // one caller from one address, on purpose: the limits would refuse most of a steady load
    RATE_LIMIT_PER_MINUTE: '100000000', STOREFRONT_RATE_LIMIT_PER_MINUTE: '100000000',
    ...(databaseUrl !== null ? { DATABASE_URL: databaseUrl } : { DATA_DIR: dataDir as string })
  }, { inMemory: databaseUrl !== null })
  const receiver = await startAppReceiver()
  const app = await buildApp({ config })
  await app.ready()
  await app.listen({ port: 0, host: '127.0.0.1' })
  const storefront = createServer(listenerTimeouts(config), app.storefront.handler)
  storefront.listen(0, '127.0.0.1')
  await once(storefront, 'listening')
  const api = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`
  const store = `http://127.0.0.1:${(storefront.address() as AddressInfo).port}`
  const agent = new Agent({ connections: MAX_IN_FLIGHT, keepAliveTimeout: 30_000 })
  try {
    const setup = await setUp(app, receiver.url)
    const appAuth = { authorization: `Bearer ${setup.accessToken}` }
    const cart = { items: [{ productId: setup.productId, quantity: 1 }], deliveryMethod: 'DELIVERY', address: '1 Main St', locality: 'Centre' }
    const order = { ...cart, customer: { name: 'Ana', phone: '+15550100', email: 'ana@example.com' }, paymentMethod: 'CASH' }
    let lastOrderId: string | null = null

    async function call (what: string, url: string, init: { method: 'GET' | 'POST', headers?: Record<string, string>, body?: unknown }): Promise<unknown> {
      tally.inFlight++
      try {
        const response = await request(url, {
          dispatcher: agent, method: init.method,
          headers: { ...init.headers, ...(init.body !== undefined ? { 'content-type': 'application/json' } : {}) },
          body: init.body !== undefined ? JSON.stringify(init.body) : undefined
        })
        const text = await response.body.text()
        if (response.statusCode >= 300) { noteError(`${what}: ${response.statusCode} ${text.slice(0, 120)}`); return null }
        return JSON.parse(text)
      } catch (error) {
        noteError(`${what}: ${(error as Error).message}`)
        return null
      } finally {
        tally.inFlight--
      }
    }
    let readTurn = 0
    const read = async () => {
      const turn = readTurn++ % 3
      const done = turn === 0
        ? await call('order list', `${api}/app-api/orders?limit=20`, { method: 'GET', headers: appAuth })
        : turn === 1 || lastOrderId === null
          ? await call('product list', `${api}/app-api/products`, { method: 'GET', headers: appAuth })
          : await call('order by id', `${api}/app-api/orders/${lastOrderId}`, { method: 'GET', headers: appAuth })
      if (done !== null) tally.reads++
    }
    const place = async () => {
      if (await call('quote', `${store}/store/${setup.slug}/api/checkout/quote`, { method: 'POST', body: cart }) === null) return
      const placed = await call('order', `${store}/store/${setup.slug}/api/orders`, { method: 'POST', body: order }) as { id?: string, order?: { id: string } } | null
      if (placed === null) return
      lastOrderId = placed.order?.id ?? placed.id ?? lastOrderId
      tally.orders++
    }

    // the work of the second under way when the run ends is dropped, and what is in flight is awaited, so
    // that nothing of this engine's run fails against the closed agent and counts in the next one's figures
    const timers = new Set<NodeJS.Timeout>()
    const running = new Set<Promise<void>>()
    const later = (ms: number, work: () => Promise<void>) => {
      const timer = setTimeout(() => {
        timers.delete(timer)
        const done: Promise<void> = work().finally(() => running.delete(done))
        running.add(done)
      }, ms)
      timers.add(timer)
    }
    resetCounts()
    firstErrors.length = 0

    const loop = monitorEventLoopDelay({ resolution: 10 })
    loop.enable()
    const samples: Sample[] = []
    const started = performance.now()
    let nextSample = SAMPLE_SECONDS
    const gc = (globalThis as { gc?: () => void }).gc
    console.log(`${label}: ${READS_PER_SECOND} App API reads and ${ORDERS_PER_SECOND} orders (quote, two hooks, a webhook each) a second for ${SECONDS} s, ` +
      `sampled every ${SAMPLE_SECONDS} s${gc === undefined ? ' (no --expose-gc: the heap is sampled without a full GC)' : ''}`)
    console.log(`${'t s'.padStart(6)} ${'RSS MB'.padStart(8)} ${'heap MB'.padStart(8)} ${'ext MB'.padStart(8)} ${'loop p50/p99/max ms'.padStart(22)} ` +
      `${'reads/s'.padStart(8)} ${'orders/s'.padStart(9)} ${'webhooks/s'.padStart(11)} ${'hooks/s'.padStart(8)} ${'errors'.padStart(7)} ${'skipped'.padStart(8)} ${'load'.padStart(5)}`)
    for (let second = 0; second < SECONDS; second++) {
      const due = started + second * 1000
      if (due > performance.now()) await new Promise((resolve) => setTimeout(resolve, due - performance.now()))
      // this second's work, spread over it; what would pass the in-flight bound is counted, not queued
      for (let i = 0; i < READS_PER_SECOND; i++) {
        if (tally.inFlight >= MAX_IN_FLIGHT) tally.skipped++
        else later((i * 1000) / READS_PER_SECOND, read)
      }
      for (let i = 0; i < ORDERS_PER_SECOND; i++) {
        if (tally.inFlight >= MAX_IN_FLIGHT) tally.skipped++
        else later((i * 1000) / ORDERS_PER_SECOND, place)
      }
      if (second + 1 >= nextSample) {
        nextSample += SAMPLE_SECONDS
        gc?.()
        const memory = process.memoryUsage()
        const sample: Sample = {
          at: second + 1,
          rssMb: memory.rss / MB,
          heapMb: memory.heapUsed / MB,
          externalMb: memory.external / MB,
          loopP50Ms: loop.percentile(50) / 1e6,
          loopP99Ms: loop.percentile(99) / 1e6,
          loopMaxMs: loop.max / 1e6,
          reads: tally.reads / SAMPLE_SECONDS,
          orders: tally.orders / SAMPLE_SECONDS,
          deliveries: tally.deliveries / SAMPLE_SECONDS,
          hookCalls: tally.hookCalls / SAMPLE_SECONDS,
          errors: tally.errors,
          skipped: tally.skipped,
          load: loadavg()[0]
        }
        loop.reset()
        resetCounts()
        samples.push(sample)
        console.log(`${String(sample.at).padStart(6)} ${figure(sample.rssMb, 1).padStart(8)} ${figure(sample.heapMb, 1).padStart(8)} ${figure(sample.externalMb, 1).padStart(8)} ` +
          `${`${figure(sample.loopP50Ms, 1)} / ${figure(sample.loopP99Ms, 1)} / ${figure(sample.loopMaxMs, 0)}`.padStart(22)} ` +
          `${figure(sample.reads, 1).padStart(8)} ${figure(sample.orders, 1).padStart(9)} ${figure(sample.deliveries, 1).padStart(11)} ${figure(sample.hookCalls, 1).padStart(8)} ` +
          `${String(sample.errors).padStart(7)} ${String(sample.skipped).padStart(8)} ${figure(sample.load, 1).padStart(5)}`)
      }
    }
    loop.disable()
    for (const timer of timers) clearTimeout(timer)
    await Promise.all(running)
    for (const error of firstErrors) console.log(`  first errors: ${error}`)
    return { label, samples, trend: trendOf(samples) }
  } finally {
    await agent.close()
    storefront.closeAllConnections()
    await new Promise((resolve) => storefront.close(resolve))
    await app.close()
    receiver.server.closeAllConnections()
    receiver.server.close()
    if (dataDir !== null) rmSync(dataDir, { recursive: true, force: true })
  }
}

/** Growth after warm-up: first sample after it against the mean of the last three, and a fitted slope per ten minutes. */
function trendOf (samples: Sample[]) {
  const after = samples.filter((sample) => sample.at > WARMUP_SECONDS)
  const measured = after.length >= 2 ? after : samples
  const growth = (pick: (sample: Sample) => number) => {
    if (measured.length < 2) return { from: Number.NaN, to: Number.NaN, percent: Number.NaN, perTenMinutes: Number.NaN }
    const from = pick(measured[0])
    const tail = measured.slice(-3)
    const to = tail.reduce((sum, sample) => sum + pick(sample), 0) / tail.length
    const meanT = measured.reduce((sum, sample) => sum + sample.at, 0) / measured.length
    const meanV = measured.reduce((sum, sample) => sum + pick(sample), 0) / measured.length
    const covariance = measured.reduce((sum, sample) => sum + (sample.at - meanT) * (pick(sample) - meanV), 0)
    const variance = measured.reduce((sum, sample) => sum + (sample.at - meanT) ** 2, 0)
    return { from, to, percent: 100 * (to - from) / from, perTenMinutes: variance === 0 ? 0 : 600 * covariance / variance }
  }
  return {
    warmedUp: after.length >= 2,
    rss: growth((sample) => sample.rssMb),
    heap: growth((sample) => sample.heapMb),
    loopP99: growth((sample) => sample.loopP99Ms)
  }
}

const runs = [await soak('PGlite (on disk)', null)]
if (SERVER_URL !== null) {
  const run = await withScratchDatabase(SERVER_URL, `bench_soak_${process.pid}`, async (url) => await soak('PostgreSQL', url))
  if (run === null) console.log('PostgreSQL  skipped: no server at BENCH_DATABASE_URL')
  else runs.push(run)
}

console.log(`\nload average ${machine().loadAverage.join(' ')} on ${machine().cores} cores at the end; growth from the first sample after ${WARMUP_SECONDS} s of warm-up to the mean of the last three, and the fitted slope`)
const aims = []
for (const run of runs) {
  const { rss, heap, loopP99 } = run.trend
  const line = (name: string, g: typeof rss, unit: string) =>
    `${`${run.label} ${name}`.padEnd(30)} ${figure(g.from, 1, unit)} → ${figure(g.to, 1, unit)} (${figure(g.percent, 1, ' %')}; ${figure(g.perTenMinutes, 2, unit)} per 10 min)`
  console.log(line('RSS', rss, ' MB'))
  console.log(line('live heap', heap, ' MB'))
  console.log(line('event-loop delay p99', loopP99, ' ms'))
  if (!run.trend.warmedUp) console.log(`${run.label}: fewer than two samples after the warm-up; the trend is over every sample`)
  aims.push(aim(`${run.label}: RSS grows ≤ 10 % after warm-up`, rss.percent <= 10, figure(rss.percent, 1, ' %')))
  aims.push(aim(`${run.label}: live heap grows ≤ 10 % after warm-up`, heap.percent <= 10, figure(heap.percent, 1, ' %')))
}
console.log('')
printAims(aims)
writeJson('soak', { seconds: SECONDS, sampleSeconds: SAMPLE_SECONDS, warmupSeconds: WARMUP_SECONDS, readsPerSecond: READS_PER_SECOND, ordersPerSecond: ORDERS_PER_SECOND, runs }, aims)
