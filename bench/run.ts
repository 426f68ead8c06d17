import { execFile } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { availableParallelism, loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import Fastify from 'fastify'
import pg from 'pg'
import { buildApp, type App } from '../server/app.ts'
import { loadConfig } from '../server/config.ts'
import { seedInstallations } from './seed.ts'

/**
 * npm run bench: GET /app-api/products with 1 000 installations' tokens rotating, on PGlite and on
 * PostgreSQL, next to a bare fastify route answering the same JSON, measured in the same run.
 */
const INSTALLATIONS = Number(process.env.BENCH_INSTALLATIONS ?? 1000)
const SECONDS = Number(process.env.BENCH_SECONDS ?? 6)
const WARMUP_SECONDS = Number(process.env.BENCH_WARMUP_SECONDS ?? 2)
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 20)
const SERVER_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres'
/** BENCH_ENGINES=pglite or postgres runs one engine only (for profiling). */
const ENGINES = (process.env.BENCH_ENGINES ?? 'pglite,postgres').split(',')
const LOAD_SCRIPT = fileURLToPath(new URL('./load.ts', import.meta.url))
const PATH = '/app-api/products'

interface Figures { rps: number, p50: number, p99: number, total: number, ok: number, non2xx: number, errors: number, cpuPerRequestUs?: number }

async function load (url: string, tokensFile: string, seconds: number): Promise<Figures> {
  const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', LOAD_SCRIPT, url, tokensFile, String(seconds), String(CONNECTIONS)], { maxBuffer: 1 << 20 })
  return JSON.parse(stdout.trim().split('\n').pop() as string)
}

/**
 * After a warm-up, the load generator's figures plus the CPU the server process (this one) spent per
 * request: unlike req/s, that figure holds when other work shares the machine.
 */
async function measure (url: string, tokensFile: string): Promise<Figures> {
  await load(url, tokensFile, WARMUP_SECONDS)
  const cpu = process.cpuUsage()
  const figures = await load(url, tokensFile, SECONDS)
  const used = process.cpuUsage(cpu)
  return { ...figures, cpuPerRequestUs: (used.user + used.system) / figures.total }
}

/** A bare fastify server whose one route answers `body` as it is: the ceiling of this machine. */
async function bareServer (body: unknown) {
  const bare = Fastify({ logger: false })
  bare.get(PATH, async () => body)
  await bare.listen({ port: 0, host: '127.0.0.1' })
  return bare
}

const addressOf = (server: { server: { address: () => unknown } }) => `http://127.0.0.1:${(server.server.address() as { port: number }).port}${PATH}`

async function createDatabase (): Promise<{ url: string, drop: () => Promise<void> }> {
  const name = `bench_${process.pid}`
  const admin = new pg.Client({ connectionString: SERVER_URL })
  await admin.connect()
  await admin.query(`drop database if exists "${name}" with (force)`)
  await admin.query(`create database "${name}"`)
  await admin.end()
  const url = new URL(SERVER_URL)
  url.pathname = `/${name}`
  return {
    url: url.toString(),
    drop: async () => {
      const dropper = new pg.Client({ connectionString: SERVER_URL })
      await dropper.connect()
      await dropper.query(`drop database if exists "${name}" with (force)`)
      await dropper.end()
    }
  }
}

/**
 * The rate limiter runs on every request but, set this high, never refuses one: at 10 000 req/s a
 * thousand installations' 60 a minute would run out within the run.
 */
const RATE_LIMIT_PER_MINUTE = '100000000'

const configFor = (databaseUrl: string | null, cacheMb?: number) => loadConfig({
  LOG_LEVEL: 'silent', DEMO_SEED: 'false', RATE_LIMIT_PER_MINUTE,
  ...(databaseUrl === null ? {} : { DATABASE_URL: databaseUrl }),
  ...(cacheMb === undefined ? {} : { APP_API_CACHE_MB: String(cacheMb) })
}, { inMemory: true })

/** The App API as configured (catalogue cache on), then once more with the cache off, on the same data. */
async function benchEngine (engine: 'PGlite' | 'PostgreSQL', databaseUrl: string | null, dir: string) {
  const started = Date.now()
  const app: App = await buildApp({ config: configFor(databaseUrl) })
  try {
    await app.ready()
    const tokens = await seedInstallations(app, INSTALLATIONS)
    const tokensFile = join(dir, `${engine}.json`)
    writeFileSync(tokensFile, JSON.stringify(tokens))
    const sample = await app.inject({ method: 'GET', url: PATH, headers: { authorization: `Bearer ${tokens[0]}` } })
    if (sample.statusCode !== 200) throw new Error(`GET ${PATH}: ${sample.statusCode} ${sample.body}`)
    console.log(`${engine}: ${tokens.length} installations seeded in ${((Date.now() - started) / 1000).toFixed(1)} s; response ${sample.body.length} bytes`)

    await app.listen({ port: 0, host: '127.0.0.1' })
    const appFigures = await measure(addressOf(app), tokensFile)
    await app.close()
    // the same data, read from the database every time (PGlite keeps its data in memory: only PostgreSQL can be reopened)
    let uncached: Figures | null = null
    if (databaseUrl !== null) {
      const direct = await buildApp({ config: configFor(databaseUrl, 0) })
      try {
        await direct.listen({ port: 0, host: '127.0.0.1' })
        uncached = await measure(addressOf(direct), tokensFile)
      } finally {
        await direct.close()
      }
    }
    const bare = await bareServer(sample.json())
    const bareFigures = await measure(addressOf(bare), '-')
    await bare.close()
    return { engine, app: appFigures, uncached, bare: bareFigures }
  } finally {
    await app.close()
  }
}

const row = (label: string, f: Figures) =>
  `${label.padEnd(34)} ${f.rps.toFixed(0).padStart(8)} ${String(f.p50).padStart(8)} ${String(f.p99).padStart(8)} ${String(f.total).padStart(8)} ${String(f.non2xx + f.errors).padStart(7)} ${(f.cpuPerRequestUs ?? 0).toFixed(0).padStart(9)}`

const dir = mkdtempSync(join(tmpdir(), 'bench-'))
const results = []
try {
  if (ENGINES.includes('pglite')) results.push(await benchEngine('PGlite', null, dir))
  if (ENGINES.includes('postgres')) {
    const database = await createDatabase()
    try {
      results.push(await benchEngine('PostgreSQL', database.url, dir))
    } finally {
      await database.drop()
    }
  }
} finally {
  rmSync(dir, { recursive: true, force: true })
}

console.log(`\nload average ${loadavg().map((n) => n.toFixed(1)).join(' ')} on ${availableParallelism()} cores (other work on the machine lowers req/s; CPU µs/req is the server process's own cost)`)
console.log(`GET ${PATH}, ${INSTALLATIONS} installations' tokens rotating, ${CONNECTIONS} connections, ${SECONDS} s per run (after ${WARMUP_SECONDS} s of warm-up)\n`)
console.log(`${''.padEnd(34)} ${'req/s'.padStart(8)} ${'p50 ms'.padStart(8)} ${'p99 ms'.padStart(8)} ${'requests'.padStart(8)} ${'non-2xx'.padStart(7)} ${'CPU µs/req'.padStart(9)}`)
for (const result of results) {
  console.log(row(`App API on ${result.engine}`, result.app))
  if (result.uncached !== null) console.log(row('  same, catalogue cache off', result.uncached))
  console.log(row('bare fastify (same JSON)', result.bare))
  console.log(`${'ratio app / bare'.padEnd(34)} ${(100 * result.app.rps / result.bare.rps).toFixed(1).padStart(7)}%` +
    (result.uncached === null ? '' : ` (cache off: ${(100 * result.uncached.rps / result.bare.rps).toFixed(1)}%)`) + '\n')
}
