import { execFile } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import Fastify from 'fastify'
import { buildApp, type App } from '../server/app.ts'
import { loadConfig } from '../server/config.ts'
import { API_VERSIONS } from '../sdk/src/contract/api-versions.ts'
import { seedInstallations } from './seed.ts'
import { withScratchDatabase } from './database.ts'
import { floorServer, statementOf } from './floor.ts'
import { aim, describeMachine, formatSpread, printAims, ROUNDS, spread, writeJson, type Aim, type Spread } from './stats.ts'

/**
 * npm run bench:app-api: App API reads with 1 000 installations' tokens rotating, on PGlite and on
 * PostgreSQL: the product list from the catalogue cache (and, on PostgreSQL, with the cache off) and
 * the order list, which no cache serves. Each is measured beside a bare fastify route answering the
 * same JSON, interleaved over BENCH_ROUNDS rounds (default 3); the median ratio and its range are
 * the figures to judge (bench/stats.ts). On PostgreSQL the order list is also measured against its
 * floor (bench/floor.ts): its own statement through one `pg` round trip, with no framework work.
 * BENCH_JSON=path writes them as JSON.
 */
const INSTALLATIONS = Number(process.env.BENCH_INSTALLATIONS ?? 1000)
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5)
const WARMUP_SECONDS = Number(process.env.BENCH_WARMUP_SECONDS ?? 2)
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 64)
const SERVER_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres'
/** BENCH_ENGINES=pglite or postgres runs one engine only (for profiling). */
const ENGINES = (process.env.BENCH_ENGINES ?? 'pglite,postgres').split(',')
const LOAD_SCRIPT = fileURLToPath(new URL('./load.mjs', import.meta.url))
const PRODUCTS = '/app-api/products'
const ORDERS = '/app-api/orders'
const OLDEST_VERSION = API_VERSIONS[0]

interface Figures { rps: number, p50: number, p99: number, total: number, ok: number, non2xx: number, errors: number, cpuPerRequestUs: number }

async function load (url: string, tokensFile: string, seconds: number, apiVersion?: string): Promise<Omit<Figures, 'cpuPerRequestUs'>> {
  const args = [LOAD_SCRIPT, url, tokensFile, String(seconds), String(CONNECTIONS), ...(apiVersion === undefined ? [] : [apiVersion])]
  const { stdout } = await promisify(execFile)(process.execPath, args, { maxBuffer: 1 << 20 })
  return JSON.parse(stdout.trim().split('\n').pop() as string)
}

/**
 * The load generator's figures plus the CPU the server process (this one) spent per request: unlike
 * req/s, that figure holds when other work shares the machine. The first round of a target warms up.
 */
async function measure (url: string, tokensFile: string, warmUp: boolean, apiVersion?: string): Promise<Figures> {
  if (warmUp) await load(url, tokensFile, WARMUP_SECONDS, apiVersion)
  const cpu = process.cpuUsage()
  const figures = await load(url, tokensFile, SECONDS, apiVersion)
  const used = process.cpuUsage(cpu)
  return { ...figures, cpuPerRequestUs: (used.user + used.system) / Math.max(1, figures.total) }
}

type Listening = { server: { address: () => unknown } }
const origin = (server: Listening) => `http://127.0.0.1:${(server.server.address() as { port: number }).port}`

/** A bare fastify server whose routes answer the bodies as they are: the ceiling of this machine. */
async function bareServer (bodies: Record<string, unknown>) {
  const bare = Fastify({ logger: false })
  for (const [path, body] of Object.entries(bodies)) bare.get(path, async () => body)
  await bare.listen({ port: 0, host: '127.0.0.1' })
  return bare
}

/**
 * The rate limiter runs on every request but, set this high, never refuses one: at 10 000 req/s a
 * thousand installations' 60 a minute would run out within the run.
 */
const RATE_LIMIT_PER_MINUTE = '100000000'

/** BENCH_UNNAMED_STATEMENTS=true: measure as behind a transaction pooler, with unnamed statements (docs/decisions.md). */
const UNNAMED_STATEMENTS = process.env.BENCH_UNNAMED_STATEMENTS === 'true'
const configFor = (databaseUrl: string | null, cacheMb?: number) => loadConfig({
  LOG_LEVEL: 'silent', DEMO_SEED: 'false', RATE_LIMIT_PER_MINUTE,
  ...(databaseUrl === null ? {} : { DATABASE_URL: databaseUrl }),
  // a LISTEN URL of its own says DATABASE_URL is a transaction pooler: queries then run as unnamed statements
  ...(databaseUrl === null || !UNNAMED_STATEMENTS ? {} : { DATABASE_LISTEN_URL: `${databaseUrl}?application_name=bench-listen` }),
  ...(cacheMb === undefined ? {} : { APP_API_CACHE_MB: String(cacheMb) })
}, { inMemory: true })

/**
 * `apiVersion`: sent as App-Api-Version (the installs are pinned to the newest, as production pins new ones).
 * `floorUrl`: the read's floor (PostgreSQL's order list), measured in the same round.
 */
interface Target { label: string, url: string, bareUrl: string, apiVersion?: string, floorUrl?: string }
interface TargetFigures {
  label: string, app: Spread, bare: Spread, ratio: Spread, p99: Spread, bareP99: Spread, cpuPerRequestUs: Spread, bareCpuPerRequestUs: Spread, failed: number,
  /** req/s of the floor and the read's share of it, where the target has one */
  floor?: { rps: Spread, share: Spread, cpuPerRequestUs: Spread, failed: number }
}

function floorFigures (r: Array<{ app: Figures, floor: Figures }>): NonNullable<TargetFigures['floor']> {
  return {
    rps: spread(r.map((x) => x.floor.rps)),
    share: spread(r.map((x) => 100 * x.app.rps / x.floor.rps)),
    cpuPerRequestUs: spread(r.map((x) => x.floor.cpuPerRequestUs)),
    failed: r.reduce((sum, x) => sum + x.floor.non2xx + x.floor.errors, 0)
  }
}

async function get (app: App, path: string, token: string): Promise<unknown> {
  const response = await app.inject({ method: 'GET', url: path, headers: { authorization: `Bearer ${token}` } })
  if (response.statusCode !== 200) throw new Error(`GET ${path}: ${response.statusCode} ${response.body}`)
  return response.json()
}

/**
 * The App API as configured (catalogue cache on) and, on PostgreSQL, a second process' worth of it
 * with the cache off on the same data (PGlite keeps its data in one process' memory), each target
 * and its bare route one after the other in every round.
 */
async function benchEngine (engine: 'PGlite' | 'PostgreSQL', databaseUrl: string | null, dir: string) {
  const started = Date.now()
  const app: App = await buildApp({ config: configFor(databaseUrl) })
  let direct: App | null = null
  let bare: Awaited<ReturnType<typeof bareServer>> | null = null
  let floor: Awaited<ReturnType<typeof floorServer>> | null = null
  try {
    await app.ready()
    const tokens = await seedInstallations(app, INSTALLATIONS)
    const tokensFile = join(dir, `${engine}.json`)
    writeFileSync(tokensFile, JSON.stringify(tokens))
    const bodies = { [PRODUCTS]: await get(app, PRODUCTS, tokens[0]), [ORDERS]: await get(app, ORDERS, tokens[0]) }
    console.log(`${engine}: ${tokens.length} installations seeded in ${((Date.now() - started) / 1000).toFixed(1)} s`)

    await app.listen({ port: 0, host: '127.0.0.1' })
    bare = await bareServer(bodies)
    const targets: Target[] = [{ label: 'products (catalogue cache)', url: origin(app) + PRODUCTS, bareUrl: origin(bare) + PRODUCTS }]
    if (databaseUrl !== null) {
      direct = await buildApp({ config: configFor(databaseUrl, 0) })
      await direct.listen({ port: 0, host: '127.0.0.1' })
      targets.push({ label: 'products, cache off', url: origin(direct) + PRODUCTS, bareUrl: origin(bare) + PRODUCTS })
    }
    if (databaseUrl !== null) floor = await floorServer(databaseUrl, await statementOf(app, ORDERS, tokens[0]), app.config.databasePoolSize)
    targets.push({ label: 'orders list (no cache)', url: origin(app) + ORDERS, bareUrl: origin(bare) + ORDERS, ...(floor === null ? {} : { floorUrl: floor.url }) })
    // an app pinned to the first version (every install made before versions were): the same list, downgraded
    targets.push({ label: `orders list, ${OLDEST_VERSION}`, url: origin(app) + ORDERS, bareUrl: origin(bare) + ORDERS, apiVersion: OLDEST_VERSION })

    const runs = new Map<string, Array<{ app: Figures, bare: Figures, floor?: Figures }>>(targets.map((target) => [target.label, []]))
    for (let round = 0; round < ROUNDS; round++) {
      for (const target of targets) {
        const appFigures = await measure(target.url, tokensFile, round === 0, target.apiVersion)
        const bareFigures = await measure(target.bareUrl, '-', round === 0)
        const floorRun = target.floorUrl === undefined ? undefined : await measure(target.floorUrl, '-', round === 0)
        runs.get(target.label)!.push({ app: appFigures, bare: bareFigures, floor: floorRun })
      }
    }
    return targets.map(({ label }): TargetFigures => {
      const r = runs.get(label)!
      return {
        label,
        app: spread(r.map((x) => x.app.rps)),
        bare: spread(r.map((x) => x.bare.rps)),
        ratio: spread(r.map((x) => 100 * x.app.rps / x.bare.rps)),
        p99: spread(r.map((x) => x.app.p99)),
        bareP99: spread(r.map((x) => x.bare.p99)),
        cpuPerRequestUs: spread(r.map((x) => x.app.cpuPerRequestUs)),
        bareCpuPerRequestUs: spread(r.map((x) => x.bare.cpuPerRequestUs)),
        failed: r.reduce((sum, x) => sum + x.app.non2xx + x.app.errors, 0),
        ...(r[0].floor === undefined ? {} : { floor: floorFigures(r as Array<{ app: Figures, floor: Figures }>) })
      }
    })
  } finally {
    await floor?.close()
    await bare?.close()
    await direct?.close()
    await app.close()
  }
}

const dir = mkdtempSync(join(tmpdir(), 'bench-'))
const results: Array<{ engine: string, targets: TargetFigures[] }> = []
try {
  if (ENGINES.includes('pglite')) results.push({ engine: 'PGlite', targets: await benchEngine('PGlite', null, dir) })
  if (ENGINES.includes('postgres')) {
    const targets = await withScratchDatabase(SERVER_URL, `bench_${process.pid}`, async (url) => await benchEngine('PostgreSQL', url, dir))
    if (targets === null) throw new Error(`no PostgreSQL server at ${SERVER_URL} (BENCH_DATABASE_URL)`)
    results.push({ engine: 'PostgreSQL', targets })
  }
} finally {
  rmSync(dir, { recursive: true, force: true })
}

console.log(`\n${describeMachine()} (other work on the machine lowers req/s; CPU µs/req is the server process's own cost)`)
console.log(`${INSTALLATIONS} installations' tokens rotating, ${CONNECTIONS} connections, ${SECONDS} s per run (after ${WARMUP_SECONDS} s of warm-up); median (min–max) over the rounds\n`)
console.log(`${''.padEnd(38)} ${'req/s'.padStart(20)} ${'bare req/s'.padStart(20)} ${'app / bare'.padStart(20)} ${'p99 ms'.padStart(14)} ${'CPU µs/req'.padStart(16)} ${'failed'.padStart(6)}`)
const aims: Aim[] = []
for (const { engine, targets } of results) {
  for (const f of targets) {
    console.log(`${`${engine}: ${f.label}`.padEnd(38)} ${formatSpread(f.app).padStart(20)} ${formatSpread(f.bare).padStart(20)} ${formatSpread(f.ratio, 1, '%').padStart(20)} ` +
      `${formatSpread(f.p99).padStart(14)} ${formatSpread(f.cpuPerRequestUs).padStart(16)} ${String(f.failed).padStart(6)}`)
  }
  const orders = targets.find((f) => f.label.startsWith('orders'))
  if (engine === 'PostgreSQL' && orders !== undefined) {
    aims.push(aim('orders list on PostgreSQL ≥ 30 % of the bare route', orders.ratio.median >= 30, formatSpread(orders.ratio, 1, '%')))
    if (orders.floor !== undefined) {
      aims.push(aim('orders list on PostgreSQL ≥ 80 % of its floor', orders.floor.share.median >= 80, formatSpread(orders.floor.share, 1, '%')))
    }
    aims.push(aim(`orders list p99 < 50 ms at ${CONNECTIONS} connections`, orders.p99.median < 50 && CONNECTIONS >= 64, `${formatSpread(orders.p99)} ms${CONNECTIONS < 64 ? ' (aim is at 64 connections)' : ''}`))
  }
}
for (const { engine, targets } of results) {
  for (const f of targets) {
    if (f.floor === undefined) continue
    console.log(`\n${engine}: ${f.label} against its floor, its own statement through one pg round trip with no framework work:`)
    console.log(`  floor ${formatSpread(f.floor.rps)} req/s at ${formatSpread(f.floor.cpuPerRequestUs)} CPU µs/req (${f.floor.failed} failed); ` +
      `the list ${formatSpread(f.app)} req/s, ${formatSpread(f.floor.share, 1, '%')} of the floor`)
  }
}
console.log('')
printAims(aims)
writeJson('app-api', { installations: INSTALLATIONS, connections: CONNECTIONS, seconds: SECONDS, results }, aims)
