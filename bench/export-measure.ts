import { createHash } from 'node:crypto'
import { readFileSync, writeFileSync } from 'node:fs'
import { get, type IncomingMessage } from 'node:http'
import { monitorEventLoopDelay } from 'node:perf_hooks'
import { Transform, Writable } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import { createGunzip } from 'node:zlib'
import type { App } from '../server/app.ts'
import { emitEvent } from '../server/events.ts'
import { percentile } from './stats.ts'

/**
 * The instruments of the growth bench's export part (#41 item 5): this process's memory while a job
 * runs in it, the load of another business measured before and during that job, and a streamed,
 * verified download. Nothing here knows what is exported.
 */

const MEMORY_SAMPLE_MS = 10
/** The other business's pace: an App API request this long after the last one ended, an event this often. */
const OTHERS_REQUEST_GAP_MS = 10
const OTHERS_EVENT_EVERY_MS = 20
const ARRIVAL_WAIT_MS = 30_000
/** The first line of the file kept to show what a record looks like. */
const FIRST_LINE_MAX = 64 * 1024

const sleep = async (ms: number) => await new Promise((resolve) => setTimeout(resolve, ms))
const MB = 1048576

/** Linux's high-water mark of this process's resident memory (kB → bytes), or null elsewhere. */
function highWaterMark (): number | null {
  try {
    const match = /VmHWM:\s+(\d+) kB/.exec(readFileSync('/proc/self/status', 'utf8'))
    return match === null ? null : Number(match[1]) * 1024
  } catch {
    return null
  }
}

export interface MemoryPeak {
  beforeRss: number
  peakRss: number
  rssGrowth: number
  heapGrowth: number
  externalGrowth: number
  samples: number
  /** Whether the kernel's high-water mark was read (else the samples alone). */
  highWaterMark: boolean
}

/**
 * Samples process.memoryUsage() every 10 ms from now until stop(); the peak is the larger of the
 * samples and the kernel's high-water mark, reset here (clear_refs 5), so a spike between two samples
 * (or while the event loop is blocked) still counts.
 */
export function watchMemory (): { stop: () => MemoryPeak } {
  const before = process.memoryUsage()
  let reset = false
  try {
    writeFileSync('/proc/self/clear_refs', '5')
    reset = true
  } catch { /* not Linux, or not allowed: the samples alone */ }
  const peak = { rss: before.rss, heapUsed: before.heapUsed, external: before.external }
  let samples = 0
  const sample = () => {
    const now = process.memoryUsage()
    peak.rss = Math.max(peak.rss, now.rss)
    peak.heapUsed = Math.max(peak.heapUsed, now.heapUsed)
    peak.external = Math.max(peak.external, now.external)
    samples++
  }
  const timer = setInterval(sample, MEMORY_SAMPLE_MS)
  return {
    stop () {
      clearInterval(timer)
      sample()
      const mark = reset ? highWaterMark() : null
      const peakRss = Math.max(peak.rss, mark ?? 0)
      return {
        beforeRss: before.rss,
        peakRss,
        rssGrowth: peakRss - before.rss,
        heapGrowth: peak.heapUsed - before.heapUsed,
        externalGrowth: peak.external - before.external,
        samples,
        highWaterMark: mark !== null
      }
    }
  }
}

export const megabytes = (bytes: number) => bytes / MB

export type Phase = 'quiet' | 'busy'
export interface Probe { name: string, run: () => Promise<unknown> }
export interface PhaseFigures {
  requests: number
  apiP50: number
  apiP99: number
  byProbe: Record<string, { p50: number, p99: number }>
  events: number
  deliveryP50: number
  deliveryP99: number
  loopP99: number
  loopMax: number
}
export interface OthersFigures { quiet: PhaseFigures, busy: PhaseFigures, lost: number }

const sortedOf = (values: number[]) => [...values].sort((a, b) => a - b)

/**
 * Another business's load while this process does something else: its App API requests one after the
 * other (a short gap between them) and an event every 20 ms delivered to its webhook at `arrivals`.
 * Each request and event counts in the phase it started in; `busy()` turns the page, `stop()` waits
 * for the events to arrive and answers p50/p99 per phase, and the event loop's delay in each.
 */
export function othersLoad (app: App, businessId: string, probes: Probe[], arrivals: Map<string, number>) {
  let phase: Phase = 'quiet'
  const state = { stopped: false }
  // a failed request or event ends both loops; stop() throws it rather than leaving a rejection unhandled
  let failure: unknown = null
  const failed = (error: unknown) => {
    failure ??= error
    state.stopped = true
  }
  const api = { quiet: [] as Array<{ name: string, ms: number }>, busy: [] as Array<{ name: string, ms: number }> }
  const emitted = new Map<string, { at: number, phase: Phase }>()
  const loops = { quiet: monitorEventLoopDelay({ resolution: 10 }), busy: monitorEventLoopDelay({ resolution: 10 }) }
  loops.quiet.enable()

  const requests = (async () => {
    for (let i = 0; !state.stopped; i++) {
      const probe = probes[i % probes.length]
      const at = phase
      const started = performance.now()
      await probe.run()
      if (!state.stopped) api[at].push({ name: probe.name, ms: performance.now() - started })
      await sleep(OTHERS_REQUEST_GAP_MS)
    }
  })().catch(failed)
  const events = (async () => {
    for (let n = 0; !state.stopped; n++) {
      const key = `other-${n}`
      const at = phase
      await app.db.transaction(async (tx) => { await emitEvent(tx, { businessId, event: 'product.updated', data: { key } }) })
      emitted.set(key, { at: performance.now(), phase: at })
      await sleep(OTHERS_EVENT_EVERY_MS)
    }
  })().catch(failed)

  const figures = (which: Phase): PhaseFigures => {
    const samples = api[which]
    const all = sortedOf(samples.map((s) => s.ms))
    const byProbe = Object.fromEntries(probes.map((probe) => {
      const mine = sortedOf(samples.filter((s) => s.name === probe.name).map((s) => s.ms))
      return [probe.name, { p50: percentile(mine, 0.5), p99: percentile(mine, 0.99) }]
    }))
    const delays = sortedOf([...emitted].filter(([, e]) => e.phase === which).map(([key, e]) => (arrivals.get(key) ?? Number.POSITIVE_INFINITY) - e.at))
    const loop = loops[which]
    return {
      requests: all.length,
      apiP50: percentile(all, 0.5),
      apiP99: percentile(all, 0.99),
      byProbe,
      events: delays.length,
      deliveryP50: percentile(delays, 0.5),
      deliveryP99: percentile(delays, 0.99),
      loopP99: loop.percentile(99) / 1e6,
      loopMax: loop.max / 1e6
    }
  }

  return {
    busy () {
      loops.quiet.disable()
      loops.busy.enable()
      phase = 'busy'
    },
    async stop (): Promise<OthersFigures> {
      loops.busy.disable()
      loops.quiet.disable()
      state.stopped = true
      await Promise.all([requests, events])
      if (failure !== null) throw failure
      const deadline = performance.now() + ARRIVAL_WAIT_MS
      while ([...emitted.keys()].some((key) => !arrivals.has(key)) && performance.now() < deadline) await sleep(50)
      return { quiet: figures('quiet'), busy: figures('busy'), lost: [...emitted.keys()].filter((key) => !arrivals.has(key)).length }
    }
  }
}

export interface Download { status: number, bytes: number, sha256: string, lines: number, ms: number, firstLine: string }

/**
 * GETs `url` and streams it through a SHA-256 of the bytes as downloaded and a gunzip whose lines are
 * counted, holding no more than a chunk at a time (and the first line, to show a record).
 */
export async function download (url: string): Promise<Download> {
  const started = performance.now()
  const response = await new Promise<IncomingMessage>((resolve, reject) => get(url, resolve).on('error', reject))
  if (response.statusCode !== 200) {
    response.resume()
    return { status: response.statusCode ?? 0, bytes: 0, sha256: '', lines: 0, ms: performance.now() - started, firstLine: '' }
  }
  const hash = createHash('sha256')
  let bytes = 0
  let lines = 0
  let endsWithNewline = true
  let firstLine = ''
  let firstDone = false
  const meter = new Transform({
    transform (chunk: Buffer, _encoding, callback) {
      hash.update(chunk)
      bytes += chunk.length
      callback(null, chunk)
    }
  })
  const counter = new Writable({
    write (chunk: Buffer, _encoding, callback) {
      if (!firstDone) {
        const end = chunk.indexOf(10)
        firstLine += chunk.subarray(0, end === -1 ? chunk.length : end).toString('utf8')
        firstDone = end !== -1 || firstLine.length >= FIRST_LINE_MAX
      }
      for (let at = chunk.indexOf(10); at !== -1; at = chunk.indexOf(10, at + 1)) lines++
      if (chunk.length > 0) endsWithNewline = chunk[chunk.length - 1] === 10
      callback()
    }
  })
  await pipeline(response, meter, createGunzip(), counter)
  // a last record without its newline is a line too
  if (!endsWithNewline) lines++
  return { status: 200, bytes, sha256: hash.digest('hex'), lines, ms: performance.now() - started, firstLine }
}
