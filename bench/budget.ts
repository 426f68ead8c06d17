/**
 * npm run bench:budget: what one webhook delivery at one registration per event (×1) costs, counted
 * rather than timed: the statements this process sends per delivery by kind (bench/statements.ts),
 * and the CPU it and the PostgreSQL server spend per delivery. Two cases on each engine: lone events
 * (one committed, delivered and recorded before the next: the quiet case) and a burst of BENCH_EVENTS
 * events from 16 writers. The dispatcher is woken by the outbox's NOTIFY as a worker's is, without the
 * worker's sweeps and jobs (a web process's app), so the counts hold the delivery path only.
 * The writers' own statements (BEGIN, the outbox insert, COMMIT) are shown apart. docs/benchmarks.md
 * keeps the figures.
 */
import { readdirSync, readFileSync } from 'node:fs'
import { countStatements, statementKind, tally, type Statement } from './statements.ts'
import { buildApp, type App } from '../server/app.ts'
import { loadConfig } from '../server/config.ts'
import { OUTBOX_CHANNEL } from '../server/events.ts'
import { withScratchDatabase } from './database.ts'
import { emit, setUp, startReceiver, type Receiver } from './webhook-setup.ts'
import { portsOf } from '../server/app.ts'

const LONE_EVENTS = Number(process.env.BENCH_LONE_EVENTS ?? 50)
const BURST_EVENTS = Number(process.env.BENCH_EVENTS ?? 4000)
const WRITERS = 16
const SERVER_URL = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres'
const ENGINES = (process.env.BENCH_ENGINES ?? 'pglite,postgres').split(',')
const WRITER_KINDS = new Set(['begin', 'commit', 'outbox insert', 'outbox wake'])

const counter = countStatements()

/** CPU seconds of the local PostgreSQL server's processes so far (0 where it is not on this machine or not readable). */
function serverCpuSeconds (): number {
  const tick = 100
  let total = 0
  for (const pid of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    try {
      if (!readFileSync(`/proc/${pid}/comm`, 'utf8').startsWith('postgres')) continue
      const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ')
      total += (Number(fields[11]) + Number(fields[12])) / tick
    } catch {}
  }
  return total
}

interface Case { name: string, deliveries: number, path: Record<string, number>, writers: Record<string, number>, nodeUs: number, serverUs: number }

async function measure (name: string, deliveries: number, app: App, work: () => Promise<void>): Promise<Case> {
  await portsOf(app).webhooks.delivery.settled()
  counter.take()
  const node = process.cpuUsage()
  const server = serverCpuSeconds()
  await work()
  await portsOf(app).webhooks.delivery.settled()
  const nodeCpu = process.cpuUsage(node)
  const serverUs = (serverCpuSeconds() - server) * 1e6
  // the console's live tail notifies on its own timer: not the delivery's
  const counts = tally(counter.take().filter((s: Statement) => statementKind(s) !== 'live tail'))
  const path: Record<string, number> = {}
  const writers: Record<string, number> = {}
  for (const [kind, n] of Object.entries(counts)) (WRITER_KINDS.has(kind) ? writers : path)[kind] = n
  return { name, deliveries, path, writers, nodeUs: (nodeCpu.user + nodeCpu.system) / deliveries, serverUs: serverUs / deliveries }
}

async function run (engine: string, databaseUrl: string | null): Promise<Case[]> {
  const config = loadConfig({ LOG_LEVEL: 'warn', DEMO_SEED: 'false', PROCESS_ROLE: 'web', ...(databaseUrl !== null ? { DATABASE_URL: databaseUrl } : {}) }, { inMemory: true })
  const app = await buildApp({ config })
  await app.ready()
  const receiver: Receiver = await startReceiver()
  const unlisten = await app.database.listen(OUTBOX_CHANNEL, () => { void portsOf(app).webhooks.delivery.dispatch() })
  try {
    const businessId = await setUp(app, receiver.url, 1)
    // the first attempt to an app also looks for its developer's `listen` session (once): not counted
    await emit(app, businessId, 'warm-up')
    await receiver.until(['warm-up#0'], performance.now() + 30_000)
    const lone = await measure(`${engine} lone events`, LONE_EVENTS, app, async () => {
      for (let i = 0; i < LONE_EVENTS; i++) {
        await emit(app, businessId, `lone-${i}`)
        await receiver.until([`lone-${i}#0`], performance.now() + 30_000)
        await portsOf(app).webhooks.delivery.settled()
      }
    })
    const burst = await measure(`${engine} burst, ${WRITERS} writers`, BURST_EVENTS, app, async () => {
      let next = 0
      await Promise.all(Array.from({ length: WRITERS }, async () => {
        while (next < BURST_EVENTS) await emit(app, businessId, `burst-${next++}`)
      }))
      await receiver.until(Array.from({ length: BURST_EVENTS }, (_, i) => `burst-${i}#0`), performance.now() + 120_000)
    })
    return [lone, burst]
  } finally {
    await unlisten()
    await app.close()
    await receiver.close()
  }
}

const cases: Case[] = []
if (ENGINES.includes('pglite')) cases.push(...await run('PGlite', null))
if (ENGINES.includes('postgres')) {
  const measured = await withScratchDatabase(SERVER_URL, `bench_budget_${process.pid}`, async (url) => await run('PostgreSQL', url))
  if (measured === null) console.log('PostgreSQL skipped: no server at DATABASE_URL')
  else cases.push(...measured)
}
counter.stop()

const perDelivery = (counts: Record<string, number>, deliveries: number) =>
  Object.entries(counts).map(([kind, n]) => `${kind} ${(n / deliveries).toFixed(3)}`).join(', ')
console.log('webhook delivery budget at one registration per event: statements per delivery by kind, CPU per delivery')
for (const c of cases) {
  const total = Object.values(c.path).reduce((sum, n) => sum + n, 0)
  console.log(`\n${c.name} (${c.deliveries} deliveries)`)
  console.log(`  delivery path: ${(total / c.deliveries).toFixed(3)} statements per delivery (${perDelivery(c.path, c.deliveries)})`)
  console.log(`  the writers':  ${perDelivery(c.writers, c.deliveries)}`)
  console.log(`  CPU per delivery: this process ${c.nodeUs.toFixed(0)} µs${c.name.startsWith('PostgreSQL') ? `, PostgreSQL server ${c.serverUs.toFixed(0)} µs` : ' (PGlite included)'}`)
}
