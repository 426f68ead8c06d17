import { writeFileSync } from 'node:fs'
import { availableParallelism, loadavg } from 'node:os'

/**
 * Figures that hold on a shared machine: a bench measures the platform and its reference (a bare
 * route, the raw signed-POST rate) one after the other, round after round, and judges the median of
 * the per-round ratios, printed with their spread. A single run says little: the bare route alone
 * moved from 10 600 to 25 900 req/s between two runs on the same machine.
 */
export const ROUNDS = Math.max(1, Number(process.env.BENCH_ROUNDS ?? 3))

export function median (values: number[]): number {
  if (values.length === 0) return Number.NaN
  const sorted = [...values].sort((a, b) => a - b)
  const middle = Math.floor(sorted.length / 2)
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
}

/** The value at `fraction` (0–1) of an ascending list; NaN for an empty one (a run where nothing arrived). */
export function percentile (sorted: number[], fraction: number): number {
  if (sorted.length === 0) return Number.NaN
  return sorted[Math.min(sorted.length - 1, Math.floor(fraction * sorted.length))]
}

/** A figure with `digits` decimals, or `none` for a run that measured nothing (NaN). */
export function figure (value: number, digits = 0, unit = ''): string {
  return Number.isFinite(value) ? `${value.toFixed(digits)}${unit}` : 'none'
}

export interface Spread { median: number, min: number, max: number, values: number[] }

/** The rounds' median and range; rounds that measured nothing (NaN) are left out, and none at all gives NaN. */
export function spread (values: number[]): Spread {
  const measured = values.filter((value) => Number.isFinite(value))
  if (measured.length === 0) return { median: Number.NaN, min: Number.NaN, max: Number.NaN, values }
  return { median: median(measured), min: Math.min(...measured), max: Math.max(...measured), values: measured }
}

/** "42.1 (39.0–44.3)": a median and its range over the rounds. */
export function formatSpread (s: Spread, digits = 0, unit = ''): string {
  if (!Number.isFinite(s.median)) return 'none'
  const f = (n: number) => n.toFixed(digits)
  return s.values.length === 1 ? `${f(s.median)}${unit}` : `${f(s.median)}${unit} (${f(s.min)}–${f(s.max)})`
}

export interface Aim { name: string, met: boolean, figure: string }

/** An aim is a figure to print as met or not, never a gate: a bench exits 0 either way. */
export function aim (name: string, met: boolean, figure: string): Aim {
  return { name, met, figure }
}

export function printAims (aims: Aim[]): void {
  if (aims.length === 0) return
  console.log('aims (medians over the rounds; figures, not gates):')
  for (const a of aims) console.log(`  ${a.met ? 'met    ' : 'not met'}  ${a.name}: ${a.figure}`)
}

export function machine () {
  return { date: new Date().toISOString(), loadAverage: loadavg().map((n) => Number(n.toFixed(2))), cores: availableParallelism(), rounds: ROUNDS }
}

export function describeMachine (): string {
  const m = machine()
  return `load average ${m.loadAverage.map((n) => n.toFixed(1)).join(' ')} on ${m.cores} cores, ${m.rounds} interleaved round${m.rounds === 1 ? '' : 's'}`
}

/** BENCH_JSON=path: the figures as JSON for tooling, beside the printed table. */
export function writeJson (bench: string, figures: unknown, aims: Aim[]): void {
  const path = process.env.BENCH_JSON
  if (path === undefined || path === '') return
  writeFileSync(path, JSON.stringify({ bench, ...machine(), figures, aims }, null, 2) + '\n')
  console.log(`figures written to ${path}`)
}
