/**
 * npm run bench:drivers: does a faster PostgreSQL driver pay off for the reads no cache serves? The
 * App API's order list (plugins/commerce listOrders: one prepared statement, the page and its total)
 * run through drizzle over node-postgres (`pg`, what the platform uses) and over postgres.js, on the
 * same data, interleaved over BENCH_ROUNDS rounds. Prints lists/s and the CPU this process spent per
 * list, medians with their range; BENCH_JSON=path writes them. Each driver runs as the platform would
 * on a direct connection: node-postgres with named statements (keepsSessions, as server/db/client.ts
 * registers a direct pool), postgres.js with its own prepared statements. BENCH_UNNAMED_STATEMENTS=true
 * runs both as behind a transaction pooler instead (unnamed statements; postgres.js `prepare: false`).
 */
import pg from 'pg'
import postgres from 'postgres'
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres'
import { drizzle as drizzlePostgresJs } from 'drizzle-orm/postgres-js'
import { buildApp } from '../server/app.ts'
import { loadConfig } from '../server/config.ts'
import type { Db } from '../server/db/client.ts'
import * as schema from '../server/db/schema/index.ts'
import { keepsSessions } from '../server/db/sessions.ts'
import { listOrders } from '../plugins/commerce/orders-service.ts'
import { seedInstallations } from './seed.ts'
import { withScratchDatabase } from './database.ts'
import { describeMachine, formatSpread, ROUNDS, spread, writeJson, type Spread } from './stats.ts'

const SERVER_URL = process.env.BENCH_DATABASE_URL ?? process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres'
const BUSINESSES = Number(process.env.BENCH_INSTALLATIONS ?? 200)
const SECONDS = Number(process.env.BENCH_SECONDS ?? 4)
const CONCURRENCY = Number(process.env.BENCH_CONNECTIONS ?? 64)
const POOL = 10
const UNNAMED_STATEMENTS = process.env.BENCH_UNNAMED_STATEMENTS === 'true'

/** As many order lists as CONCURRENCY callers get through in SECONDS, and this process' CPU per list. */
async function measure (db: Db, businessIds: string[]) {
  const deadline = performance.now() + SECONDS * 1000
  const cpu = process.cpuUsage()
  let done = 0
  await Promise.all(Array.from({ length: CONCURRENCY }, async (_, worker) => {
    for (let i = worker; performance.now() < deadline; i += CONCURRENCY) {
      const page = await listOrders(db, businessIds[i % businessIds.length], {})
      if (page.data.length === 0) throw new Error('the seeded business has no orders')
      done++
    }
  }))
  const used = process.cpuUsage(cpu)
  return { perSecond: done / SECONDS, cpuPerListUs: (used.user + used.system) / done }
}

const figures = await withScratchDatabase(SERVER_URL, `bench_drivers_${process.pid}`, async (url) => {
  const app = await buildApp({ config: loadConfig({ LOG_LEVEL: 'silent', DEMO_SEED: 'false', DATABASE_URL: url }, { inMemory: true }) })
  await app.ready()
  await seedInstallations(app, BUSINESSES)
  await app.close()

  const nodePostgres = new pg.Pool({ connectionString: url, max: POOL })
  const postgresJs = postgres(url, { max: POOL, onnotice: () => {}, prepare: !UNNAMED_STATEMENTS })
  const pgDb = drizzlePg(nodePostgres, { schema }) as unknown as Db
  if (!UNNAMED_STATEMENTS) keepsSessions(pgDb)
  const drivers: Array<{ name: string, db: Db }> = [
    { name: 'node-postgres (pg)', db: pgDb },
    { name: 'postgres.js', db: drizzlePostgresJs(postgresJs, { schema }) as unknown as Db }
  ]
  try {
    const ids = await nodePostgres.query<{ id: string }>('select id from businesses where name like \'Bench Shop %\'')
    const businessIds = ids.rows.map((row) => row.id)
    const runs = new Map(drivers.map((d) => [d.name, [] as Array<Awaited<ReturnType<typeof measure>>>]))
    for (const driver of drivers) await measure(driver.db, businessIds) // warm-up: connections, prepared statements, JIT
    for (let round = 0; round < ROUNDS; round++) {
      for (const driver of drivers) runs.get(driver.name)!.push(await measure(driver.db, businessIds))
    }
    return drivers.map(({ name }) => ({
      name,
      perSecond: spread(runs.get(name)!.map((r) => r.perSecond)),
      cpuPerListUs: spread(runs.get(name)!.map((r) => r.cpuPerListUs))
    }))
  } finally {
    await nodePostgres.end()
    await postgresJs.end()
  }
})
if (figures === null) throw new Error(`no PostgreSQL server at ${SERVER_URL} (BENCH_DATABASE_URL or DATABASE_URL)`)

console.log(`\n${describeMachine()}; ${BUSINESSES} businesses, ${CONCURRENCY} concurrent callers, pools of ${POOL}, ${SECONDS} s per run; ` +
  `${UNNAMED_STATEMENTS ? 'unnamed statements (as behind a transaction pooler)' : 'prepared statements (a direct connection)'}\n`)
console.log(`${'order list through drizzle over'.padEnd(34)} ${'lists/s'.padStart(20)} ${'CPU µs/list'.padStart(20)}`)
for (const f of figures as Array<{ name: string, perSecond: Spread, cpuPerListUs: Spread }>) {
  console.log(`${f.name.padEnd(34)} ${formatSpread(f.perSecond).padStart(20)} ${formatSpread(f.cpuPerListUs).padStart(20)}`)
}
const [pgFigures, postgresJsFigures] = figures
console.log(`\npostgres.js / node-postgres: ${(100 * postgresJsFigures.perSecond.median / pgFigures.perSecond.median).toFixed(0)} % of the lists/s, ` +
  `${(100 * postgresJsFigures.cpuPerListUs.median / pgFigures.cpuPerListUs.median).toFixed(0)} % of the CPU per list`)
writeJson('drivers', { businesses: BUSINESSES, concurrency: CONCURRENCY, pool: POOL, seconds: SECONDS, unnamedStatements: UNNAMED_STATEMENTS, results: figures }, [])
