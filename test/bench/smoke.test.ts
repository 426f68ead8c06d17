import { execFile } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { promisify } from 'node:util'
import t from 'tap'
import { REDIS_URL, redisReachable, SERVER_URL } from '../helper.ts'

/**
 * Every benchmark at a tiny size, as a separate process the way `npm run bench` starts it, so a
 * bench can never break unnoticed. Figures are not judged: only that each runs and prints them.
 */
/** Both engines when a PostgreSQL server is given (as CI does), else the embedded one. */
const ENGINES = SERVER_URL === null ? 'pglite' : 'pglite,postgres'
const SERVER = SERVER_URL === null ? {} : { DATABASE_URL: SERVER_URL, BENCH_DATABASE_URL: SERVER_URL }

async function bench (script: string, env: Record<string, string>) {
  return await promisify(execFile)(process.execPath, ['--import', 'tsx', script], {
    env: { PATH: process.env.PATH, ...SERVER, ...env }, timeout: 240_000, maxBuffer: 1 << 22
  })
}

t.test('npm run bench:app-api prints interleaved rounds beside the bare route, the aims and the JSON figures', async (t) => {
  const json = join(t.testdir(), 'app-api.json')
  const { stdout } = await bench('bench/run.ts', {
    BENCH_ENGINES: ENGINES, BENCH_INSTALLATIONS: '5', BENCH_SECONDS: '1', BENCH_WARMUP_SECONDS: '1', BENCH_CONNECTIONS: '2', BENCH_ROUNDS: '2', BENCH_JSON: json
  })
  // label, then median (min–max) of req/s, bare req/s and the ratio, p99, CPU, and no failed request
  t.match(stdout, /PGlite: products \(catalogue cache\)\s+[1-9]\d* \(\d+–\d+\)\s+\d+ \(\d+–\d+\)\s+[\d.]+% \([\d.]+–[\d.]+\)\s.*\s0\n/)
  t.match(stdout, /PGlite: orders list \(no cache\)\s+[1-9]\d* .*\s0\n/)
  t.match(stdout, /PGlite: orders list, 2026-11\s+[1-9]\d* .*\s0\n/, 'the same list for an app pinned to the first version')
  t.match(stdout, /2 interleaved rounds/)
  const figures = JSON.parse(readFileSync(json, 'utf8'))
  t.equal(figures.bench, 'app-api')
  t.equal(figures.rounds, 2)
  t.same(figures.figures.results[0].targets[0].ratio.values.length, 2, 'one ratio per round')
  if (SERVER_URL !== null) {
    t.match(stdout, /(met|not met)\s+orders list on PostgreSQL ≥ 30 % of the bare route: [\d.]+%/)
    // the floor: the list's own statement through one pg round trip, measured in the same rounds
    t.match(stdout, /PostgreSQL: orders list \(no cache\) against its floor[^\n]*\n\s+floor [1-9]\d* \(\d+–\d+\) req\/s at \d+ \(\d+–\d+\) CPU µs\/req \(0 failed\); the list [1-9]\d* \(\d+–\d+\) req\/s, [\d.]+% \(/)
    t.match(stdout, /(met|not met)\s+orders list on PostgreSQL ≥ 80 % of its floor: [\d.]+%/)
    t.equal(figures.figures.results[1].targets.find((target: { label: string }) => target.label === 'orders list (no cache)').floor.share.values.length, 2, 'the share of the floor, per round')
  }
})

t.test('npm run bench:webhooks delivers every event at both fan-outs beside the signed-POST rate (and the BullMQ peer on PostgreSQL)', async (t) => {
  const { stdout } = await bench('bench/webhooks.ts', { BENCH_ENGINES: ENGINES, BENCH_EVENTS: '40', BENCH_LATENCY_EVENTS: '20', BENCH_ROUNDS: '2', BENCH_FANOUT: '4', REDIS_URL })
  // platform, wire and ratio as median (min–max), nothing lost, for one webhook per event and for four
  for (const fanout of ['×1 webhook', '×4 webhooks']) {
    t.match(stdout, new RegExp(`PGlite ${fanout}\\s+[1-9]\\d* \\(\\d+–\\d+\\)\\s+[1-9]\\d* \\(\\d+–\\d+\\)\\s+[\\d.]+% \\([\\d.]+–[\\d.]+\\)\\s+not run\\s+0\\n`), fanout)
  }
  t.match(stdout, /PGlite delivered while the writers wrote ×1 webhook \d+ % \(\d+–\d+\), ×4 webhooks \d+ %/, 'how much arrived before the writers were done (0 % when the pipeline starves)')
  t.match(stdout, /PGlite latency\s+event-to-delivery p50 [\d.]+ ms, p99 [\d.]+ ms \(20\/20 at 1000\/s, one webhook\)/, 'every paced event delivered')
  t.match(stdout, /(met|not met)\s+PGlite ≥ 1 000 deliveries\/s \(×1 webhook per event\)/)
  if (SERVER_URL !== null && await redisReachable()) {
    t.match(stdout, /PostgreSQL ×4 webhooks\s+[1-9]\d* \(\d+–\d+\)\s+[1-9]\d* \(\d+–\d+\)\s+[\d.]+% \([\d.]+–[\d.]+\)\s+[1-9]\d* \(\d+–\d+\)\s+0\n/, 'the peer ran too')
  }
})

t.test('npm run bench:hooks runs the quote with and without hooks, round after round', async (t) => {
  const { stdout } = await bench('bench/hooks.ts', { BENCH_QUOTES: '20', BENCH_ROUNDS: '2' })
  t.match(stdout, /no hooks\s+p50\s+[\d.]+ ms \([\d.]+–[\d.]+\)/)
  t.match(stdout, /three instant hooks\s+p50\s+[\d.]+ ms/)
  t.match(stdout, /(met|not met)\s+hook overhead at p50 < 15 ms/)
})

t.test('npm run bench:budget counts the statements of one delivery at one webhook per event, lone and in a burst', async (t) => {
  const { stdout } = await bench('bench/budget.ts', { BENCH_ENGINES: ENGINES, BENCH_LONE_EVENTS: '3', BENCH_EVENTS: '40' })
  // a lone event: its fan-out and the write that records its delivery and stamps its event
  t.match(stdout, /PGlite lone events \(3 deliveries\)\n\s+delivery path: [\d.]+ statements per delivery \(dispatch fan-out 1\.000, .*success write 1\.000/)
  t.notMatch(stdout, /event stamp/, 'no event stamped apart')
  t.match(stdout, /PGlite lone events[^\n]*\n[^\n]*\n\s+the writers': {2}outbox insert 1\.000, outbox wake 1\.000\n/, 'an event is its insert, and its wake-up after the commit')
  t.match(stdout, /PGlite burst, 16 writers \(40 deliveries\)/)
  t.match(stdout, /CPU per delivery: this process \d+ µs/)
})

t.test('npm run bench:first-start times npm start on an empty DATA_DIR, with and without the template, and a restart', async (t) => {
  // the demo seed off: the smoke test checks the bench runs, not what the demo costs
  const { stdout } = await bench('bench/first-start.ts', { BENCH_ROUNDS: '1', DEMO_SEED: 'false' })
  t.match(stdout, /round 1: first start [\d.]+ s, without a template [\d.]+ s, restart [\d.]+ s/)
  t.match(stdout, /first start on an empty DATA_DIR \(demo seed off\), from the template: [\d.]+ s/)
  t.match(stdout, /(met|not met)\s+first start ≤ 5 s \(quiet machine\)/)
})

t.test('npm run bench:relay runs the quote directly and through app-platform listen, round after round', async (t) => {
  const { stdout } = await bench('bench/relay.ts', { BENCH_QUOTES: '20', BENCH_ROUNDS: '2' })
  t.match(stdout, /direct \(HTTP to the app\)\s+p50\s+[\d.]+ ms \([\d.]+–[\d.]+\)/)
  t.match(stdout, /through app-platform listen\s*p50\s+[\d.]+ ms/)
  t.match(stdout, /(met|not met)\s+relay overhead at p50 < 50 ms/)
})

t.test('npm run bench:drivers lists orders through both PostgreSQL drivers', { skip: SERVER_URL === null ? 'needs a PostgreSQL server (DATABASE_URL)' : false }, async (t) => {
  const { stdout } = await bench('bench/drivers.ts', { BENCH_INSTALLATIONS: '3', BENCH_SECONDS: '1', BENCH_ROUNDS: '2', BENCH_CONNECTIONS: '4' })
  t.match(stdout, /node-postgres \(pg\)\s+[1-9]\d* \(\d+–\d+\)\s+\d+ \(\d+–\d+\)/)
  t.match(stdout, /postgres\.js\s+[1-9]\d* \(\d+–\d+\)/)
  t.match(stdout, /postgres\.js \/ node-postgres: \d+ % of the lists\/s/)
  t.match(stdout, /prepared statements \(a direct connection\)/, 'each driver as the platform runs it on a direct connection')
})

t.test('npm run bench:growth prints every figure beside its aim at two sizes, the bulk export beside another business, and the prune while deliveries run', async (t) => {
  const { stdout } = await bench('bench/growth.ts', {
    BENCH_ORDERS: '100,400', BENCH_DELIVERIES: '200,600', BENCH_PRUNE: '300', BENCH_BUSINESSES: '5', BENCH_SAMPLES: '2', BENCH_ROUNDS: '1', BENCH_EXPORT_QUIET_SECONDS: '1'
  })
  for (const figure of ['App API orders page 1 (400 orders)', 'App API review stats (400 orders)', 'App API dashboard 365 days (400 orders)',
    'App API order by id (beside the spread orders)', 'console deliveries status=FAILED (600 deliveries)', 'console hook calls failed (600 deliveries)',
    'console analytics (600 deliveries)', 'console replay dry-run (600 deliveries)']) {
    t.match(stdout, new RegExp(`${figure.replace(/[()=]/g, '\\$&')}\\s+p50\\s+[\\d.]+ ms\\s+p99\\s+[\\d.]+ ms`), figure)
  }
  t.match(stdout, /delivery log size per million deliveries \(with one attempt each\): tables \d+ MB, indexes \d+ MB, total \d+ MB/)
  t.match(stdout, /pruned \{"attempts":\d+,"deliveries":\d+,"events":\d+\} in [\d.]+ s; \d+ events meanwhile/)
  t.match(stdout, /(met|not met)\s+App API orders page 1 p99 at 400 within 2× of 100/)
  t.match(stdout, /(met|not met)\s+console lists < 200 ms p99 at 600 deliveries/)
  t.match(stdout, /(met|not met)\s+the prune never stalls delivery by more than 1 s/)
  // the export: every order of the business (the sandbox's own too) in the file, downloaded and verified
  t.match(stdout, /export bex_\w+: COMPLETED, [\d,]+ rows in [\d.]+ s \([\d,]+ rows\/s/)
  t.match(stdout, /RSS of this process during the export: \d+ MB before, peak \d+ MB: \+[\d.]+ MB/)
  t.match(stdout, /sha256 matches, [\d,]+ lines \(rowCount ([\d,]+), orders \1\)/)
  t.match(stdout, /paging the same [\d,]+ orders at the rate limit: [\d,]+ requests of \d+ at 60 a minute = [\d.]+ h/)
  // before / during: a tiny export may end before another business's next request or event ('none')
  t.match(stdout, /App API, every probe\s+p50 [\d.]+ \/ ([\d.]+|none) ms\s+p99 [\d.]+ \/ ([\d.]+|none) ms/)
  t.match(stdout, /delivery \(commit to arrival\)\s+p50 [\d.]+ \/ ([\d.]+|none) ms\s+p99 [\d.]+ \/ ([\d.]+|none) ms .* 0 not arrived/)
  t.match(stdout, /^\s+met\s+the download verifies/m)
  for (const name of ['orders exported in under 60 s', 'RSS growth during the export under 100 MB', 'another business\'s App API p99 during the export within 2×', 'another business\'s delivery p99 during the export within 2×']) {
    t.match(stdout, new RegExp(`(met|not met)\\s+.*${name}`), name)
  }
})

t.test('npm run bench:soak samples memory and the event loop under the mixed load and prints the trend after warm-up', async (t) => {
  const { stdout } = await bench('bench/soak.ts', { SOAK_SECONDS: '6', SOAK_SAMPLE_SECONDS: '2', SOAK_WARMUP_SECONDS: '1', SOAK_READS: '10', SOAK_ORDERS: '2' })
  // t, RSS, heap, external, loop p50 / p99 / max, reads/s, orders/s, webhooks/s, hooks/s, errors, skipped, load
  const samples = stdout.match(/^\s+\d+\s+[\d.]+\s+[\d.]+\s+[\d.]+\s+[\d.]+ \/ [\d.]+ \/ \d+\s+[\d.]+\s+[\d.]+\s+[\d.]+\s+[\d.]+\s+0\s+\d+\s+[\d.]+$/gm) ?? []
  t.ok(samples.length >= 3, `a sample every 2 s without a failed request (${samples.length})`)
  // the requests of the last second of a run used to go out after its agent closed and count against the next engine
  t.notMatch(stdout, /client is destroyed/, 'no request outlives its run')
  t.match(stdout, /PGlite \(on disk\) RSS\s+[\d.]+ MB → [\d.]+ MB \(-?[\d.]+ %; -?[\d.]+ MB per 10 min\)/)
  t.match(stdout, /PGlite \(on disk\) live heap\s+[\d.]+ MB → [\d.]+ MB/)
  t.match(stdout, /(met|not met)\s+PGlite \(on disk\): RSS grows ≤ 10 % after warm-up/)
  if (SERVER_URL !== null) t.match(stdout, /(met|not met)\s+PostgreSQL: live heap grows ≤ 10 % after warm-up/)
})
