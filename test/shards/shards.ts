import { readdirSync, statSync } from 'node:fs'
import { join, relative } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import t from 'tap'
import { readWeights, writeMeasurements } from './weights.ts'

/**
 * The suite runs as a few processes that each import a group of test files, instead of one
 * process per file: every process compiles PGlite's WebAssembly and the server's modules once,
 * then each test file still builds its own apps on databases of its own. `npx tap FILE` runs one
 * file alone; `npx tap test/shards/3.test.ts` runs one group.
 */
export const SHARD_COUNT = 8

const TEST_ROOT = fileURLToPath(new URL('..', import.meta.url))
/** The reference apps' own tests (examples/<name>/test) run in the same groups, named relative to test/. */
const EXAMPLES_ROOT = fileURLToPath(new URL('../../examples', import.meta.url))
/**
 * Run on their own: browser tests (`npm run test:browser`), the bench smoke test (`npm run test:bench`,
 * once per CI run rather than once per database), the admin UI's library tests (each in a process of
 * its own, with a browser-like global scope: tap's include); the shard entries are not test files of a group.
 */
const NOT_GROUPED = ['e2e', 'shards', 'bench', 'admin-ui']

/**
 * Seconds of wall time per file, measured by the groups themselves (`runShard` times each file it runs
 * and keeps the figures under node_modules/.cache; `npm run test:weights` writes them into this
 * committed file, test/shards/weights.ts): they balance the groups and give each file its time budget
 * (fileTimeout). Read from the committed file only, so the same files give the same groups on every
 * machine, a fresh CI clone included. A file without a figure counts as DEFAULT_WEIGHT.
 */
const WEIGHTS = readWeights()
export const DEFAULT_WEIGHT = 3
export const weightOf = (file: string): number => WEIGHTS[file] ?? DEFAULT_WEIGHT

/**
 * The unit tier: a test file named `*.unit.test.ts`, beside the other tests of the module it tests,
 * exercises pure code (no database, no app, no test/helper.ts: test/architecture/unit-tier.test.ts).
 * `npm run test:unit` runs them all in one process (test/shards/unit.ts); `npm test` runs them in the
 * groups like any other file.
 */
export const UNIT_SUFFIX = '.unit.test.ts'
export const isUnitFile = (file: string): boolean => file.endsWith(UNIT_SUFFIX)

/**
 * Files whose outcome does not depend on the database (the unit tier, the SDK, the contract, the architecture and
 * docs checks, the OpenAPI document, which is rendered on an in-memory database of its own): the
 * run on PostgreSQL (`DATABASE_URL` set) leaves them to the PGlite run instead of repeating them.
 */
const DATABASE_INDEPENDENT = ['sdk/', 'contract/', 'architecture/', 'docs/', 'openapi/openapi.test.ts', 'openapi/generated-client.test.ts']
export const runsOnThisDatabase = (file: string, databaseUrl = process.env.DATABASE_URL): boolean =>
  databaseUrl === undefined || databaseUrl === '' || !(isUnitFile(file) || DATABASE_INDEPENDENT.some((prefix) => file.startsWith(prefix)))

/**
 * A file's budget inside its group: generous enough for a machine loaded four times over (tests wait
 * for work, so a busy machine makes them slower, not red), short enough that one stalled file fails
 * alone, named, while the rest of its group still runs. tap's own per-process timeout (package.json)
 * is only the backstop.
 */
const MIN_FILE_TIMEOUT_S = 240
const TIMEOUT_PER_WEIGHT = 12
export const fileTimeout = (file: string): number => 1000 * Math.max(MIN_FILE_TIMEOUT_S, TIMEOUT_PER_WEIGHT * weightOf(file))

function testFiles (folder: string): string[] {
  return readdirSync(folder).flatMap((name) => {
    const path = join(folder, name)
    if (statSync(path).isDirectory()) return folder === TEST_ROOT && NOT_GROUPED.includes(name) ? [] : testFiles(path)
    return name.endsWith('.test.ts') ? [relative(TEST_ROOT, path)] : []
  }).sort()
}

function exampleTestFiles (): string[] {
  const examples = readdirSync(EXAMPLES_ROOT).map((name) => join(EXAMPLES_ROOT, name, 'test'))
  return examples.filter((folder) => statSync(folder, { throwIfNoEntry: false })?.isDirectory() === true).flatMap(testFiles)
}

/** Every file the groups run (on this database), under test/ and the examples' test folders. */
export const groupedFiles = (databaseUrl = process.env.DATABASE_URL): string[] =>
  [...testFiles(TEST_ROOT), ...exampleTestFiles()].filter((file) => runsOnThisDatabase(file, databaseUrl))

/** The unit tier's files (`npm run test:unit`). */
export const unitFiles = (): string[] => [...testFiles(TEST_ROOT), ...exampleTestFiles()].filter(isUnitFile)

/** Heaviest file first into the lightest group: the same files give the same groups on every machine. */
export function groups (weightOfFile: (file: string) => number = weightOf): string[][] {
  const bins = Array.from({ length: SHARD_COUNT }, () => ({ files: [] as string[], load: 0 }))
  const weighted = groupedFiles().map((file) => ({ file, weight: weightOfFile(file) }))
  weighted.sort((a, b) => b.weight - a.weight || a.file.localeCompare(b.file))
  for (const { file, weight } of weighted) {
    const lightest = bins.reduce((min, bin) => (bin.load < min.load ? bin : min))
    lightest.files.push(file)
    lightest.load += weight
  }
  return bins.map((bin) => bin.files.sort())
}

type TestArgs = Parameters<typeof t.test>

export interface RunOptions {
  /** A file's budget (the figure of weights.json, by default). */
  timeoutOf?: (file: string) => number
  /**
   * Keeps each file's measured seconds (the sum of its top-level tests' wall times) under this name
   * in the cache of measurements, when the process exits (test/shards/weights.ts).
   */
  recordAs?: string
}

/**
 * Imports `files` (paths under test/) into this process. Each file's top-level tests register on the
 * root test while the file is imported; they are registered under the file's name and with its
 * timeout, so a failure or a stall names the file it belongs to and the files after it still run.
 * The root runs them one after another, so the time from a test's start to its end is the file's own.
 */
export async function runFiles (files: string[], { timeoutOf = fileTimeout, recordAs }: RunOptions = {}): Promise<void> {
  const rootTest = t.test.bind(t)
  const rootSetTimeout = t.setTimeout.bind(t)
  const measured = new Map<string, number>()
  if (recordAs !== undefined) process.once('exit', () => { writeMeasurements(recordAs, measured) })
  // a file's t.setTimeout at the top level would set the whole group's budget (and end every file after it)
  t.setTimeout = (() => { throw new Error('A grouped test file may not set the root timeout: give the file a weight (test/shards/weights.json)') }) as typeof t.setTimeout
  try {
    for (const file of files) {
      measured.set(file, 0)
      t.test = ((...args: TestArgs) => {
        const name = args.find((arg) => typeof arg === 'string') ?? '(unnamed)'
        const options = args.find((arg) => typeof arg === 'object' && arg !== null) ?? {}
        const fn = args.find((arg) => typeof arg === 'function') as ((t: unknown) => unknown) | undefined
        let started: number | undefined
        const timed = fn === undefined ? undefined : (sub: unknown) => { started = performance.now(); return fn(sub) }
        const done = rootTest(`${file} › ${name as string}`, { timeout: timeoutOf(file), ...options as object }, timed as never)
        const record = (): void => { if (started !== undefined) measured.set(file, (measured.get(file) ?? 0) + performance.now() - started) }
        done.then(record, record)
        return done
      }) as typeof t.test
      await import(pathToFileURL(join(TEST_ROOT, file)).href)
    }
  } finally {
    t.test = rootTest
    t.setTimeout = rootSetTimeout
  }
}

/** The measurements' name of group `n` on this database: the PGlite and PostgreSQL runs keep theirs apart. */
export const groupRecordName = (n: number, databaseUrl = process.env.DATABASE_URL): string =>
  `${databaseUrl === undefined || databaseUrl === '' ? 'pglite' : 'postgres'}-${n}`

/** Imports group `n` (1-based) into this process, and keeps what each of its files took. */
export async function runShard (n: number): Promise<void> {
  await runFiles(groups()[n - 1], { recordAs: groupRecordName(n) })
}
