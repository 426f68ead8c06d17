import { mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

/**
 * The groups' measured weights. Every group process times each file it runs (`runFiles`, shards.ts)
 * and, when it exits, writes the figures as a part of its own under MEASUREMENTS_DIR (`pglite-3.json`,
 * `postgres-3.json`, …): parallel groups never write the same file, and each part is written whole
 * (a temporary file, then a rename), so no reader sees half of one. `npm run test:weights` merges the
 * parts into the committed weights.json, which balancing and the files' budgets read.
 */
export const WEIGHTS_FILE = fileURLToPath(new URL('./weights.json', import.meta.url))
export const MEASUREMENTS_DIR = process.env.TEST_WEIGHTS_DIR ??
  fileURLToPath(new URL('../../node_modules/.cache/app-platform-tests/weights', import.meta.url))

/** Seconds per file, keyed by its path under test/. */
export type Weights = Record<string, number>
export interface Part { name: string, measuredAt: string, seconds: Weights }

export const readWeights = (file = WEIGHTS_FILE): Weights => JSON.parse(readFileSync(file, 'utf8')) as Weights

/** Writes one group's measurements (milliseconds per file) as its part, whole or not at all. */
export function writeMeasurements (name: string, milliseconds: ReadonlyMap<string, number>, dir = MEASUREMENTS_DIR, now = new Date()): void {
  const seconds = Object.fromEntries([...milliseconds].map(([file, ms]) => [file, ms / 1000]))
  const part: Part = { name, measuredAt: now.toISOString(), seconds }
  mkdirSync(dir, { recursive: true })
  const temporary = join(dir, `.${name}.${process.pid}.tmp`)
  writeFileSync(temporary, JSON.stringify(part, null, 2) + '\n')
  renameSync(temporary, join(dir, `${name}.json`))
}

export function readParts (dir = MEASUREMENTS_DIR): Part[] {
  let names: string[]
  try { names = readdirSync(dir) } catch { return [] }
  return names.filter((name) => name.endsWith('.json')).map((name) => JSON.parse(readFileSync(join(dir, name), 'utf8')) as Part)
}

/** One decimal, at least 0.1 s: a file that ran is never weightless. */
const rounded = (seconds: number): number => Math.max(0.1, Math.round(seconds * 10) / 10)

/**
 * The committed figures refreshed by the parts: per database (the part's name before its dash) a
 * file's newest figure, and across databases the larger (the budget must hold on both). Files the
 * parts do not name keep their figure; files that no longer exist (`exists`) lose theirs.
 */
export function mergeWeights (committed: Weights, parts: Part[], exists: (file: string) => boolean): Weights {
  const newest = new Map<string, { at: string, seconds: number }>()
  for (const part of parts) {
    const database = part.name.split('-')[0]
    for (const [file, seconds] of Object.entries(part.seconds)) {
      const key = `${database}\u0000${file}`
      const seen = newest.get(key)
      if (seen === undefined || part.measuredAt > seen.at) newest.set(key, { at: part.measuredAt, seconds })
    }
  }
  const measured = new Map<string, number>()
  for (const [key, { seconds }] of newest) {
    const file = key.split('\u0000')[1]
    measured.set(file, Math.max(measured.get(file) ?? 0, seconds))
  }
  const merged: Weights = {}
  for (const file of new Set([...Object.keys(committed), ...measured.keys()])) {
    if (!exists(file)) continue
    const seconds = measured.get(file)
    merged[file] = seconds === undefined ? committed[file] : rounded(seconds)
  }
  return Object.fromEntries(Object.keys(merged).sort().map((file) => [file, merged[file]]))
}
