import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { sql } from 'drizzle-orm'
import { buildApp, type App } from '../server/app.ts'
import { loadConfig } from '../server/config.ts'
import { emitEvent } from '../server/events.ts'
import { rows } from '../server/db/rows.ts'
import { inject } from './app-inject.ts'
import { withScratchDatabase } from './database.ts'
import { benchExport } from './growth-export.ts'
import { deliveriesInsert, ordersInsert, reviewsInsert } from './growth-seed.ts'
import { aim, describeMachine, figure, percentile, printAims, ROUNDS, writeJson, type Aim } from './stats.ts'
import { portsOf } from '../server/app.ts'

/**
 * `npm run bench:growth` (#28 item 7): the same requests on a small and a grown data set, so a cost
 * that grows with the data shows. Seeds set-based (generate_series) orders of one business and spread
 * over many businesses, reviews, and the delivery and hook-call logs of one app; then measures, round
 * after round, every read at each size; exports the large size's orders in bulk (#41 item 5) while another
 * business's reads and deliveries run; then prunes a log past its retention while deliveries run.
 * Figures, never a gate. Sizes from the environment, so the smoke test runs it tiny:
 *   BENCH_ORDERS=10000,1000000  orders of the measured business at each size (small first)
 *   BENCH_BUSINESSES=1000       businesses the spread data set shares the large size between
 *   BENCH_DELIVERIES=100000,10000000  delivery rows of one app at each size
 *   BENCH_PRUNE=1000000         deliveries past the retention that the prune removes while deliveries run
 *   BENCH_SAMPLES=40            requests per figure per round
 *   BENCH_EXPORT_QUIET_SECONDS=15  another business's load measured this long before the bulk export of the large size's orders
 * PostgreSQL with BENCH_DATABASE_URL (a scratch database is made and dropped); else in-memory PGlite.
 * NODE_OPTIONS=--expose-gc adds the live heap after a full GC before and after the export.
 */

const list = (value: string | undefined, fallback: number[]) => value === undefined || value === '' ? fallback : value.split(',').map(Number)
const ORDERS = list(process.env.BENCH_ORDERS, [10_000, 1_000_000])
const DELIVERIES = list(process.env.BENCH_DELIVERIES, [100_000, 10_000_000])
const BUSINESSES = Number(process.env.BENCH_BUSINESSES ?? 1000)
const PRUNE = Number(process.env.BENCH_PRUNE ?? 1_000_000)
const SAMPLES = Number(process.env.BENCH_SAMPLES ?? 40)
const EXPORT_QUIET_SECONDS = Number(process.env.BENCH_EXPORT_QUIET_SECONDS ?? 15)
const SERVER_URL = process.env.BENCH_DATABASE_URL ?? null
/** Rows per seeding statement: one statement's transition table stays a few hundred MB at most. */
const CHUNK = 100_000

const RETENTION_DAYS = 30

interface Setup { developerToken: string, appId: string, webhookId: string, installationId: string, businessId: string, token: string, productIds: string[] }

/** A developer, an app with every read scope test-installed on its sandbox (a business of its own), and a webhook to `receiverUrl`. */
async function setUp (app: App, receiverUrl: string, who = 'growth'): Promise<Setup> {
  const register = await app.inject({
    method: 'POST', url: '/auth/register', payload: { email: `${who}-${process.pid}@example.com`, password: 'correct-horse-battery', name: 'Bench', role: 'DEVELOPER' }
  })
  const developerToken = register.json().token as string
  const created = await inject(app, 'POST', '/developer/apps', developerToken, {
    name: `Bench ${who}`, slug: `${who}-${process.pid}`, description: 'Reads everything.', category: 'analytics',
    scopes: ['read_products', 'read_orders', 'read_reviews', 'read_analytics'], redirectUrl: 'https://app.example.com/cb', webhookUrl: 'https://app.example.com/hooks'
  })
  const installed = await inject(app, 'POST', `/developer/apps/${created.app.id}/test-install`, developerToken, {})
  const webhook = await inject(app, 'POST', '/webhooks', installed.accessToken, { url: receiverUrl, events: ['product.updated'] })
  const productIds = (await rows(app.db, sql<{ id: string }>`select id from products where business_id = ${installed.businessId} order by id`)).map((row) => row.id)
  return {
    developerToken, appId: created.app.id, webhookId: webhook.id, installationId: installed.installationId,
    businessId: installed.businessId, token: installed.accessToken, productIds
  }
}

async function timed (label: string, work: () => Promise<unknown>): Promise<number> {
  const started = performance.now()
  await work()
  const ms = performance.now() - started
  console.log(`  seeded ${label} in ${(ms / 1000).toFixed(1)} s`)
  return ms
}

/** Orders of the measured business up to `total` (from `have`), in chunks. */
async function seedOrders (app: App, setup: Setup, have: number, total: number, tag: string): Promise<void> {
  for (let from = have; from < total; from += CHUNK) {
    const count = Math.min(CHUNK, total - from)
    await app.db.execute(ordersInsert({ businessId: setup.businessId, productIds: setup.productIds, count, from, days: 400, tag }))
  }
}

/** `count` orders spread over BUSINESSES businesses of their own (one product each), in chunks. */
async function seedSpread (app: App, setup: Setup, count: number): Promise<void> {
  await app.db.execute(sql`insert into businesses (id, name, slug, owner_id) select 'bsp_' || g, 'Spread ' || g, 'spread-' || g || '-' || ${process.pid}, 'bench'
    from generate_series(1, ${BUSINESSES}::int) as g`)
  const per = Math.max(1, Math.floor(count / BUSINESSES))
  for (let b = 1; b <= BUSINESSES; b++) {
    await app.db.execute(ordersInsert({ businessId: `bsp_${b}`, productIds: setup.productIds, count: per, days: 400, tag: `ord_sp${b}` }))
  }
}

async function seedDeliveries (app: App, setup: Setup, have: number, total: number, days: number, tag: string): Promise<void> {
  const seed = { appId: setup.appId, installationId: setup.installationId, webhookId: setup.webhookId, businessId: setup.businessId }
  for (let from = have; from < total; from += CHUNK) {
    await app.db.execute(deliveriesInsert({ ...seed, count: Math.min(CHUNK, total - from), from, days, tag }))
  }
}

/** Hook calls of the app: one for every ten deliveries. */
async function seedHookCalls (app: App, setup: Setup, have: number, total: number): Promise<void> {
  for (let from = have; from < total; from += CHUNK) {
    const count = Math.min(CHUNK, total - from)
    await app.db.execute(sql`insert into hook_calls (id, app_id, installation_id, business_id, hook_point, url, success, status_code, duration_ms, created_at)
      select 'hkc_g' || g, ${setup.appId}, ${setup.installationId}, ${setup.businessId},
        (array['checkout.shipping_rates','order.validate','order.calculate_discounts'])[1 + g % 3], 'https://app.example.com/hooks', g % 25 <> 0,
        case when g % 25 = 0 then 500 else 200 end, 10 + g % 90, now() - (29::float8 * 86400 * (g - ${from})::float8 / ${count}::float8) * interval '1 second'
      from generate_series(${from + 1}::int, ${from + count}::int) as g`)
  }
}

type Probe = { name: string, run: () => Promise<unknown> }

/** Every probe SAMPLES times per round, the probes taking turns within each round; p50/p99 per probe over all rounds. */
async function measure (probes: Probe[]): Promise<Map<string, { p50: number, p99: number }>> {
  const samples = new Map<string, number[]>(probes.map((probe) => [probe.name, []]))
  for (const probe of probes) await probe.run() // warm: plans, caches
  for (let round = 0; round < ROUNDS; round++) {
    for (let i = 0; i < SAMPLES; i++) {
      for (const probe of probes) {
        const started = performance.now()
        await probe.run()
        samples.get(probe.name)!.push(performance.now() - started)
      }
    }
  }
  return new Map([...samples].map(([name, values]) => {
    const sorted = [...values].sort((a, b) => a - b)
    return [name, { p50: percentile(sorted, 0.5), p99: percentile(sorted, 0.99) }]
  }))
}

function appApiProbes (app: App, setup: Setup, size: number): Probe[] {
  const token = setup.token
  // page 100 (orders 1 981–2 000) exists at every size from 2 000 orders on; else the last page
  const deepPage = Math.max(1, Math.min(100, Math.floor(size / 20)))
  const daysAgo = (n: number) => new Date(Date.now() - n * 86_400_000).toISOString().slice(0, 10)
  const today = daysAgo(0)
  let orderId = ''
  return [
    { name: 'App API orders page 1', run: async () => { orderId = (await inject(app, 'GET', '/app-api/orders', token)).data[0].id } },
    { name: `App API orders page ${deepPage}`, run: async () => await inject(app, 'GET', `/app-api/orders?page=${deepPage}`, token) },
    { name: 'App API orders by status', run: async () => await inject(app, 'GET', '/app-api/orders?status=CONFIRMED', token) },
    { name: 'App API order by id', run: async () => await inject(app, 'GET', `/app-api/orders/${orderId}`, token) },
    { name: 'App API reviews page 1', run: async () => await inject(app, 'GET', '/app-api/reviews', token) },
    { name: 'App API review stats', run: async () => await inject(app, 'GET', '/app-api/reviews/stats', token) },
    { name: 'App API dashboard 30 days', run: async () => await inject(app, 'GET', '/app-api/analytics/dashboard', token) },
    { name: 'App API dashboard 365 days', run: async () => await inject(app, 'GET', `/app-api/analytics/dashboard?from=${daysAgo(364)}&to=${today}`, token) }
  ]
}

async function consoleProbes (app: App, setup: Setup): Promise<Probe[]> {
  const base = `/developer/apps/${setup.appId}`
  const token = setup.developerToken
  const since = new Date(Date.now() - 29 * 86_400_000).toISOString()
  // the console's Next follows cursors: the cursor that leads to page 500 (the 10 000th delivery), taken once
  const cursor500 = (await inject(app, 'GET', `${base}/deliveries?page=499`, token)).nextCursor as string | null
  return [
    { name: 'console deliveries page 1', run: async () => await inject(app, 'GET', `${base}/deliveries`, token) },
    { name: 'console deliveries status=FAILED', run: async () => await inject(app, 'GET', `${base}/deliveries?status=FAILED`, token) },
    { name: 'console deliveries event=review.created', run: async () => await inject(app, 'GET', `${base}/deliveries?event=review.created`, token) },
    { name: 'console deliveries page 50', run: async () => await inject(app, 'GET', `${base}/deliveries?page=50`, token) },
    { name: 'console deliveries page 500 by offset', run: async () => await inject(app, 'GET', `${base}/deliveries?page=500`, token) },
    ...(cursor500 === null
      ? []
      : [{ name: 'console deliveries page 500 by cursor', run: async () => await inject(app, 'GET', `${base}/deliveries?page=500&before=${encodeURIComponent(cursor500)}`, token) }]),
    { name: 'console hook calls page 1', run: async () => await inject(app, 'GET', `${base}/hook-calls`, token) },
    { name: 'console hook calls failed', run: async () => await inject(app, 'GET', `${base}/hook-calls?success=false`, token) },
    { name: 'console analytics', run: async () => await inject(app, 'GET', `${base}/analytics`, token) },
    // the service under the console's route: the route itself allows a developer 10 replays a minute
    { name: 'console replay dry-run', run: async () => await portsOf(app).webhooks.replayOn(await portsOf(app).webhooks.getOfApp(setup.appId, setup.webhookId), { since }, { dryRun: true }) }
  ]
}

/** A local receiver answering 204, resolving each arrival's key with its time. */
async function startReceiver (): Promise<{ url: string, server: Server, arrivals: Map<string, number> }> {
  const arrivals = new Map<string, number>()
  const server = createServer((request, response) => {
    let body = ''
    request.on('data', (chunk) => { body += chunk })
    request.on('end', () => {
      try {
        const key = JSON.parse(body).data?.key
        if (typeof key === 'string') arrivals.set(key, performance.now())
      } catch { /* a body that is not JSON is still answered */ }
      response.writeHead(204).end()
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`, server, arrivals }
}

/**
 * Events every 20 ms while `during` runs, and after; each event's time from commit to arrival. The
 * figure is the worst delay of an event emitted while the prune ran, beside the p50 of the quiet ones.
 */
async function deliveriesDuring (app: App, setup: Setup, arrivals: Map<string, number>, during: () => Promise<unknown>) {
  const emitted = new Map<string, { at: number, busy: boolean }>()
  let busy = true
  const state = { stop: false }
  let n = 0
  const emitter = (async () => {
    while (!state.stop) {
      const key = `k${n++}`
      await app.db.transaction(async (tx) => { await emitEvent(tx, { businessId: setup.businessId, event: 'product.updated', data: { key } }) })
      emitted.set(key, { at: performance.now(), busy })
      await new Promise((resolve) => setTimeout(resolve, 20))
    }
  })()
  const started = performance.now()
  const result = await during()
  const pruneMs = performance.now() - started
  busy = false
  await new Promise((resolve) => setTimeout(resolve, 1000))
  state.stop = true
  await emitter
  const deadline = performance.now() + 30_000
  while ([...emitted.keys()].some((key) => !arrivals.has(key)) && performance.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50))
  const delays = (which: boolean) => [...emitted].filter(([, e]) => e.busy === which)
    .map(([key, e]) => (arrivals.get(key) ?? Number.POSITIVE_INFINITY) - e.at).sort((a, b) => a - b)
  const busyDelays = delays(true)
  const quiet = delays(false)
  const p50 = (sorted: number[]) => sorted.length === 0 ? 0 : percentile(sorted, 0.5)
  return {
    result,
    pruneMs,
    events: busyDelays.length,
    worst: busyDelays.length === 0 ? 0 : busyDelays[busyDelays.length - 1],
    p50: p50(busyDelays),
    quietP50: p50(quiet),
    lost: [...emitted.keys()].filter((key) => !arrivals.has(key)).length
  }
}

async function sizes (app: App): Promise<{ deliveries: number, bytes: number, tableBytes: number, indexBytes: number }> {
  const [row] = await rows(app.db, sql<{ deliveries: string, table_bytes: string, index_bytes: string }>`select
    (select count(*) from webhook_deliveries)::text as deliveries,
    (pg_table_size('webhook_deliveries') + pg_table_size('webhook_attempts'))::text as table_bytes,
    (pg_indexes_size('webhook_deliveries') + pg_indexes_size('webhook_attempts'))::text as index_bytes`)
  const tableBytes = Number(row.table_bytes)
  const indexBytes = Number(row.index_bytes)
  return { deliveries: Number(row.deliveries), tableBytes, indexBytes, bytes: tableBytes + indexBytes }
}

const show = (figures: Map<string, { p50: number, p99: number }>, at: string) => {
  for (const [name, f] of figures) console.log(`  ${`${name} (${at})`.padEnd(58)} p50 ${figure(f.p50, 1).padStart(8)} ms   p99 ${figure(f.p99, 1).padStart(8)} ms`)
}

async function benchEngine (engine: string, databaseUrl: string | null) {
  const config = loadConfig({
    LOG_LEVEL: 'warn', DEMO_SEED: 'false', RATE_LIMIT_PER_MINUTE: '100000000', APP_API_CACHE_MB: '0', DELIVERY_LOG_RETENTION_DAYS: String(RETENTION_DAYS),
    // seeding statements of 100 000 rows are not requests: the 30 s default would cancel them on a loaded machine
    DATABASE_STATEMENT_TIMEOUT_MS: '3600000',
    ...(databaseUrl === null ? {} : { DATABASE_URL: databaseUrl })
  }, { inMemory: true })
  const app = await buildApp({ config })
  await app.ready()
  const receiver = await startReceiver()
  const aims: Aim[] = []
  const figures: Record<string, unknown> = {}
  try {
    const setup = await setUp(app, receiver.url)
    console.log(`${engine}: App API, one business (orders ${ORDERS.join(' → ')}; reviews a tenth of that)`)
    const apiAt = new Map<number, Map<string, { p50: number, p99: number }>>()
    let have = 0
    for (const size of ORDERS) {
      await timed(`${size - have} orders`, async () => await seedOrders(app, setup, have, size, `ord_s${size}`))
      await timed(`${Math.floor((size - have) / 10)} reviews`, async () => await app.db.execute(reviewsInsert({ businessId: setup.businessId, productIds: setup.productIds, count: Math.floor((size - have) / 10), days: 400, tag: `rev_s${size}` })))
      if (databaseUrl !== null) await app.db.execute(sql`vacuum analyze orders, reviews, order_days, product_days, list_counts, review_counts`)
      have = size
      const measured = await measure(appApiProbes(app, setup, size))
      apiAt.set(size, measured)
      show(measured, `${size.toLocaleString('en')} orders`)
    }
    const small = apiAt.get(ORDERS[0])!
    const large = apiAt.get(ORDERS[ORDERS.length - 1])!
    for (const name of ['App API orders page 1', 'App API order by id', 'App API review stats', 'App API dashboard 365 days']) {
      const ratio = large.get(name)!.p99 / small.get(name)!.p99
      aims.push(aim(`${name} p99 at ${ORDERS[ORDERS.length - 1].toLocaleString('en')} within 2× of ${ORDERS[0].toLocaleString('en')}`, ratio <= 2,
        `${figure(large.get(name)!.p99, 1)} ms vs ${figure(small.get(name)!.p99, 1)} ms (${figure(ratio, 2)}×)`))
    }
    figures.appApi = Object.fromEntries([...apiAt].map(([size, m]) => [size, Object.fromEntries(m)]))

    // the same total spread over many businesses: one business's share, next to the others' rows
    console.log(`${engine}: ${ORDERS[ORDERS.length - 1].toLocaleString('en')} more orders spread over ${BUSINESSES.toLocaleString('en')} businesses`)
    await timed('spread orders', async () => await seedSpread(app, setup, ORDERS[ORDERS.length - 1]))
    if (databaseUrl !== null) await app.db.execute(sql`vacuum analyze orders, order_days, product_days, list_counts`)
    const spreadFigures = await measure(appApiProbes(app, setup, ORDERS[ORDERS.length - 1]).slice(0, 4))
    show(spreadFigures, 'beside the spread orders')
    figures.spread = Object.fromEntries(spreadFigures)

    // another business with an app of its own (its sandbox, the small size's orders) whose load is measured while the first one's orders are exported
    const other = await setUp(app, receiver.url, 'other')
    await timed(`${ORDERS[0]} orders of another business`, async () => await seedOrders(app, other, 0, ORDERS[0], 'ord_other'))
    if (databaseUrl !== null) await app.db.execute(sql`vacuum analyze orders, order_days, product_days, list_counts`)
    // an export leaves out the changes of the last SYNC_SETTLE_SECONDS: every order counted here is past them
    await new Promise((resolve) => setTimeout(resolve, app.config.syncSettleSeconds * 1000))
    const [{ count }] = await rows(app.db, sql<{ count: string }>`select count(*)::text as count from orders where business_id = ${setup.businessId}`)
    const exported = await benchExport({
      app, engine, token: setup.token, orders: Number(count), arrivals: receiver.arrivals, quietMs: EXPORT_QUIET_SECONDS * 1000,
      other: { businessId: other.businessId, probes: appApiProbes(app, other, ORDERS[0]).slice(0, 4) }
    })
    aims.push(...exported.aims)
    figures.export = exported.figures

    console.log(`${engine}: console and analytics, one app (deliveries ${DELIVERIES.join(' → ')}; hook calls a tenth of that)`)
    const consoleAt = new Map<number, Map<string, { p50: number, p99: number }>>()
    let delivered = 0
    for (const size of DELIVERIES) {
      await timed(`${size - delivered} deliveries`, async () => await seedDeliveries(app, setup, delivered, size, RETENTION_DAYS - 1, `dlv_s${size}`))
      await timed(`${Math.floor((size - delivered) / 10)} hook calls`, async () => await seedHookCalls(app, setup, Math.floor(delivered / 10), Math.floor(size / 10)))
      if (databaseUrl !== null) await app.db.execute(sql`vacuum analyze webhook_deliveries, webhook_attempts, hook_calls`)
      delivered = size
      const measured = await measure(await consoleProbes(app, setup))
      consoleAt.set(size, measured)
      show(measured, `${size.toLocaleString('en')} deliveries`)
    }
    const largest = consoleAt.get(DELIVERIES[DELIVERIES.length - 1])!
    const worstList = [...largest].filter(([name]) => (name.startsWith('console deliveries') || name.startsWith('console hook calls')) && !name.endsWith('by offset'))
      .reduce((worst, entry) => entry[1].p99 > worst[1].p99 ? entry : worst)
    aims.push(aim(`console lists < 200 ms p99 at ${DELIVERIES[DELIVERIES.length - 1].toLocaleString('en')} deliveries`, worstList[1].p99 < 200,
      `slowest: ${worstList[0]} ${figure(worstList[1].p99, 1)} ms`))
    figures.console = Object.fromEntries([...consoleAt].map(([size, m]) => [size, Object.fromEntries(m)]))

    const size = await sizes(app)
    const perMillion = (bytes: number) => `${figure(bytes / size.deliveries * 1e6 / 1048576, 0)} MB`
    console.log(`${engine}: delivery log size per million deliveries (with one attempt each): ` +
      `tables ${perMillion(size.tableBytes)}, indexes ${perMillion(size.indexBytes)}, total ${perMillion(size.bytes)}`)
    figures.sizePerMillion = { tableBytes: size.tableBytes / size.deliveries * 1e6, indexBytes: size.indexBytes / size.deliveries * 1e6 }

    console.log(`${engine}: retention prune of ${PRUNE.toLocaleString('en')} deliveries past ${RETENTION_DAYS} days while deliveries run (an event every 20 ms)`)
    await timed(`${PRUNE} old deliveries`, async () => {
      for (let from = 0; from < PRUNE; from += CHUNK) {
        await app.db.execute(deliveriesInsert({ appId: setup.appId, installationId: setup.installationId, webhookId: setup.webhookId, businessId: setup.businessId, count: Math.min(CHUNK, PRUNE - from), from, days: 20, tag: 'dlv_old' }))
      }
      await app.db.execute(sql`update webhook_deliveries set created_at = created_at - interval '${sql.raw(String(RETENTION_DAYS + 1))} days' where id like 'dlv_old_%'`)
      await app.db.execute(sql`update webhook_attempts set created_at = created_at - interval '${sql.raw(String(RETENTION_DAYS + 1))} days' where delivery_id like 'dlv_old_%'`)
    })
    const prune = await deliveriesDuring(app, setup, receiver.arrivals, async () => await portsOf(app).webhooks.delivery.prune())
    console.log(`  pruned ${JSON.stringify(prune.result)} in ${figure(prune.pruneMs / 1000, 1)} s; ${prune.events} events meanwhile: ` +
      `delivery p50 ${figure(prune.p50, 1)} ms, worst ${figure(prune.worst, 1)} ms (quiet p50 ${figure(prune.quietP50, 1)} ms), ${prune.lost} not arrived`)
    aims.push(aim('the prune never stalls delivery by more than 1 s', prune.worst < 1000 && prune.lost === 0, `worst delivery ${figure(prune.worst, 1)} ms during a ${figure(prune.pruneMs / 1000, 1)} s prune`))
    figures.prune = prune
  } finally {
    receiver.server.close()
    await app.close()
  }
  return { aims, figures }
}

console.log(`bench:growth — ${describeMachine()}; ${SAMPLES} requests per figure per round`)
const result = SERVER_URL === null
  ? await benchEngine('PGlite', null)
  : await withScratchDatabase(SERVER_URL, `bench_growth_${process.pid}`, async (url) => await benchEngine('PostgreSQL', url))
if (result === null) {
  console.log('no PostgreSQL server answers at BENCH_DATABASE_URL; nothing measured')
} else {
  printAims(result.aims)
  writeJson('growth', result.figures, result.aims)
}
console.log(`done — ${describeMachine()}`)
