import type { AddressInfo } from 'node:net'
import type { BulkExport } from '../sdk/src/contract/bulk-exports.ts'
import type { App } from '../server/app.ts'
import { loadConfig } from '../server/config.ts'
import { inject } from './app-inject.ts'
import { download, megabytes, othersLoad, watchMemory, type PhaseFigures, type Probe } from './export-measure.ts'
import { aim, figure, type Aim } from './stats.ts'

/**
 * The growth bench's export part (#41 item 5, DESIGN §25): one business's orders exported in bulk
 * (POST until COMPLETED) while another business's App API requests and deliveries run, measured
 * before and during; this process's peak memory over the export (the job runs in it: PROCESS_ROLE
 * all); the file downloaded and verified as a stream; beside it, the same orders paged at the rate limit.
 */

const AIM_SECONDS = 60
const AIM_RSS_MB = 100
const AIM_RATIO = 2
const POLL_MS = 100
/** A job that never finishes must not hold the bench forever. */
const EXPORT_TIMEOUT_MS = 30 * 60_000
/** A full sync's first page asks for everything since the epoch (DESIGN §25), with a limit the list clamps. */
const FULL_SYNC = '/app-api/orders?updatedSince=1970-01-01T00:00:00Z&limit=1000000'

const sleep = async (ms: number) => await new Promise((resolve) => setTimeout(resolve, ms))
const thousands = (n: number) => n.toLocaleString('en')

export interface ExportBench {
  app: App
  engine: string
  /** The exporting app's token on the business whose `orders` orders are exported. */
  token: string
  orders: number
  /** Another business with an app of its own: its App API probes and its webhook delivering to `arrivals`. */
  other: { businessId: string, probes: Probe[] }
  arrivals: Map<string, number>
  /** How long the other business's load is measured before the export starts. */
  quietMs: number
}

/** POST, then GET every 100 ms until the export is no longer RUNNING (or the timeout). */
async function exportOrders (app: App, token: string): Promise<{ exported: BulkExport, ms: number, polls: number }> {
  const started = performance.now()
  let exported = await inject(app, 'POST', '/app-api/bulk-exports', token, { resource: 'orders' }) as BulkExport
  let polls = 0
  while (exported.status === 'RUNNING' && performance.now() - started < EXPORT_TIMEOUT_MS) {
    await sleep(POLL_MS)
    exported = await inject(app, 'GET', `/app-api/bulk-exports/${exported.id}`, token) as BulkExport
    polls++
  }
  return { exported, ms: performance.now() - started, polls }
}

const ratio = (during: number, before: number) => during / before
const pair = (before: number, during: number) => `${figure(before, 1)} / ${figure(during, 1)}`

function printOthers (quiet: PhaseFigures, busy: PhaseFigures, lost: number) {
  const line = (label: string, text: string) => console.log(`    ${label.padEnd(40)} ${text}`)
  line('App API, every probe', `p50 ${pair(quiet.apiP50, busy.apiP50)} ms   p99 ${pair(quiet.apiP99, busy.apiP99)} ms (${figure(ratio(busy.apiP99, quiet.apiP99), 2)}×)   ${quiet.requests} / ${busy.requests} requests`)
  for (const name of Object.keys(quiet.byProbe)) {
    const q = quiet.byProbe[name]
    const b = busy.byProbe[name]
    line(name, `p50 ${pair(q.p50, b.p50)} ms   p99 ${pair(q.p99, b.p99)} ms`)
  }
  line('delivery (commit to arrival)', `p50 ${pair(quiet.deliveryP50, busy.deliveryP50)} ms   p99 ${pair(quiet.deliveryP99, busy.deliveryP99)} ms (${figure(ratio(busy.deliveryP99, quiet.deliveryP99), 2)}×)   ${quiet.events} / ${busy.events} events, ${lost} not arrived`)
  line('event loop delay of this process', `p99 ${pair(quiet.loopP99, busy.loopP99)} ms   max ${pair(quiet.loopMax, busy.loopMax)} ms`)
}

export async function benchExport (b: ExportBench): Promise<{ aims: Aim[], figures: Record<string, unknown> }> {
  const { app, engine, token, orders } = b
  const aims: Aim[] = []
  // the download link is absolute on BASE_URL: the bench fetches its path and query from the port it listens on
  await app.listen({ port: 0, host: '127.0.0.1' })
  const origin = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`
  const pageSize = (await inject(app, 'GET', FULL_SYNC, token)).limit as number
  const perMinute = loadConfig({}, { inMemory: true }).rateLimitPerMinute

  console.log(`${engine}: bulk export of ${thousands(orders)} orders (POST until COMPLETED), another business's App API and deliveries ${figure(b.quietMs / 1000, 0)} s before and during it`)
  const others = othersLoad(app, b.other.businessId, b.other.probes, b.arrivals)
  await sleep(b.quietMs)
  others.busy()
  // with NODE_OPTIONS=--expose-gc: a full GC before and after tells a retained heap from garbage not yet collected
  const gc = (globalThis as { gc?: () => void }).gc
  gc?.()
  const liveBefore = process.memoryUsage().heapUsed
  const memory = watchMemory()
  let run: Awaited<ReturnType<typeof exportOrders>>
  try {
    run = await exportOrders(app, token)
  } catch (error) {
    memory.stop()
    await others.stop().catch(() => {})
    throw error
  }
  const peak = memory.stop()
  gc?.()
  const liveAfter = process.memoryUsage().heapUsed
  const load = await others.stop()
  const { exported } = run
  const seconds = run.ms / 1000
  const completed = exported.status === 'COMPLETED'
  const rows = exported.rowCount ?? 0
  const jobSeconds = exported.finishedAt === null ? Number.NaN : (Date.parse(exported.finishedAt) - Date.parse(exported.createdAt)) / 1000
  console.log(`  export ${exported.id}: ${exported.status}${exported.error === null ? '' : ` (${exported.error})`}, ${thousands(rows)} rows in ${figure(seconds, 1)} s ` +
    `(${thousands(Math.round(rows / seconds))} rows/s; its finishedAt − createdAt ${figure(jobSeconds, 1)} s; ${run.polls} polls)`)
  console.log(`  RSS of this process during the export: ${figure(megabytes(peak.beforeRss), 0)} MB before, peak ${figure(megabytes(peak.peakRss), 0)} MB: ` +
    `+${figure(megabytes(peak.rssGrowth), 1)} MB (heap +${figure(megabytes(peak.heapGrowth), 1)} MB, external +${figure(megabytes(peak.externalGrowth), 1)} MB at their peaks; ` +
    `${peak.samples} samples${peak.highWaterMark ? ' and the kernel\'s high-water mark' : ''})`)
  console.log(gc === undefined
    ? '  live heap: run with NODE_OPTIONS=--expose-gc to see it after a full GC'
    : `  live heap after a full GC: ${figure(megabytes(liveBefore), 1)} MB before the export, ${figure(megabytes(liveAfter), 1)} MB after (${figure(megabytes(liveAfter - liveBefore), 1)} MB kept)`)

  let verified = false
  let fetched = null
  if (completed && exported.url !== null) {
    const link = new URL(exported.url)
    const downloadMemory = watchMemory()
    fetched = await download(`${origin}${link.pathname}${link.search}`)
    const downloadPeak = downloadMemory.stop()
    const shaMatches = fetched.sha256 === exported.sha256
    verified = fetched.status === 200 && shaMatches && fetched.bytes === exported.sizeBytes && fetched.lines === rows && rows === orders
    console.log(`  file: ${figure(megabytes(exported.sizeBytes ?? 0), 1)} MB gzip (${figure((exported.sizeBytes ?? 0) / Math.max(1, rows), 1)} bytes a row); ` +
      `downloaded ${figure(megabytes(fetched.bytes), 1)} MB in ${figure(fetched.ms / 1000, 1)} s (HTTP ${fetched.status}, RSS +${figure(megabytes(downloadPeak.rssGrowth), 1)} MB), ` +
      `sha256 ${shaMatches ? 'matches' : `differs (${fetched.sha256})`}, ${thousands(fetched.lines)} lines (rowCount ${thousands(rows)}, orders ${thousands(orders)})`)
    console.log(`  first line: ${fetched.firstLine.slice(0, 200)}${fetched.firstLine.length > 200 ? '…' : ''}`)
  }

  const requests = Math.ceil(orders / pageSize)
  const pagingHours = requests / perMinute / 60
  console.log(`  paging the same ${thousands(orders)} orders at the rate limit: ${thousands(requests)} requests of ${pageSize} at ${perMinute} a minute = ` +
    `${figure(pagingHours, 1)} h, against ${figure(seconds, 1)} s for the export (${thousands(Math.round(pagingHours * 3600 / seconds))}× as long)`)
  console.log('  another business, before / during the export:')
  printOthers(load.quiet, load.busy, load.lost)

  aims.push(aim(`${thousands(orders)} orders exported in under ${AIM_SECONDS} s on ${engine}`, completed && seconds < AIM_SECONDS,
    `${exported.status} in ${figure(seconds, 1)} s, ${thousands(Math.round(rows / seconds))} rows/s (paging: ${figure(pagingHours, 1)} h)`))
  aims.push(aim(`RSS growth during the export under ${AIM_RSS_MB} MB`, peak.rssGrowth < AIM_RSS_MB * 1048576, `+${figure(megabytes(peak.rssGrowth), 1)} MB`))
  aims.push(aim('the download verifies (sha256 and size of the bytes, gunzipped lines = rowCount = orders)', verified,
    fetched === null ? 'no file' : `${figure(megabytes(fetched.bytes), 1)} MB, ${thousands(fetched.lines)} lines`))
  const apiRatio = ratio(load.busy.apiP99, load.quiet.apiP99)
  const deliveryRatio = ratio(load.busy.deliveryP99, load.quiet.deliveryP99)
  aims.push(aim(`another business's App API p99 during the export within ${AIM_RATIO}× of before`, apiRatio <= AIM_RATIO,
    `${figure(load.busy.apiP99, 1)} ms vs ${figure(load.quiet.apiP99, 1)} ms (${figure(apiRatio, 2)}×)`))
  aims.push(aim(`another business's delivery p99 during the export within ${AIM_RATIO}× of before`, deliveryRatio <= AIM_RATIO && load.lost === 0,
    `${figure(load.busy.deliveryP99, 1)} ms vs ${figure(load.quiet.deliveryP99, 1)} ms (${figure(deliveryRatio, 2)}×), ${load.lost} not arrived`))

  return {
    aims,
    figures: {
      orders, status: exported.status, error: exported.error, rows, seconds, rowsPerSecond: rows / seconds, jobSeconds,
      memory: { ...peak, liveHeapBefore: gc === undefined ? null : liveBefore, liveHeapAfter: gc === undefined ? null : liveAfter },
      sizeBytes: exported.sizeBytes, download: fetched === null ? null : { ...fetched, firstLine: undefined }, verified,
      paging: { pageSize, perMinute, requests, hours: pagingHours }, others: load
    }
  }
}
