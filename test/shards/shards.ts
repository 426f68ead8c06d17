import { readdirSync, statSync } from 'node:fs'
import { join, relative } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import t from 'tap'

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
 * Seconds of wall time per file measured on the 2-core machine, to balance the groups and to give each
 * file its time budget (fileTimeout); a file not listed counts as DEFAULT_WEIGHT.
 */
const WEIGHTS: Record<string, number> = {
  'plugins/webhooks/processes.test.ts': 73,
  'server/main.test.ts': 32,
  'plugins/installations/uninstall.test.ts': 21,
  'plugins/installations/previous-setup.test.ts': 20,
  'plugins/webhooks/retries.test.ts': 19,
  'plugins/checkout-hooks/failures.test.ts': 19,
  'plugins/app-api/auth.test.ts': 18,
  'openapi/openapi.test.ts': 17,
  'plugins/commerce/orders.test.ts': 16,
  'plugins/app-api/catalog-cache.test.ts': 15,
  'plugins/storefront/api.test.ts': 15,
  'server/db.test.ts': 15,
  'server/jobs.test.ts': 15,
  'plugins/checkout-hooks/combine.test.ts': 15,
  'plugins/commerce/business.test.ts': 13,
  'plugins/installations/reconsent.test.ts': 13,
  'plugins/app-api/payments.test.ts': 13,
  'plugins/commerce/products.test.ts': 13,
  'plugins/app-api/rate-limit.test.ts': 13,
  'plugins/apps/apps.test.ts': 13,
  'server/spa.test.ts': 12,
  'plugins/app-api/orders.test.ts': 11,
  'plugins/oauth/install.test.ts': 11,
  'plugins/app-api/catalogue.test.ts': 10,
  'plugins/apps/lifecycle.test.ts': 10,
  'plugins/checkout-hooks/payments.test.ts': 10,
  'plugins/app-api/products.test.ts': 10,
  'plugins/installations/merchant.test.ts': 10,
  'plugins/oauth/failures.test.ts': 10,
  'plugins/auth/guards.test.ts': 10,
  'plugins/commerce/checkout.test.ts': 10,
  'plugins/webhooks/lifecycle.test.ts': 9,
  'plugins/apps/credentials.test.ts': 9,
  'plugins/commerce/reviews.test.ts': 9,
  'plugins/marketplace/marketplace.test.ts': 9,
  'sdk/build.test.ts': 8,
  'plugins/auth/auth.test.ts': 8,
  'plugins/app-api/guest-orders.test.ts': 8,
  'plugins/apps/media.test.ts': 8,
  'plugins/installations/token-cache.test.ts': 8,
  'plugins/commerce/catalog-cache.test.ts': 8,
  'plugins/apps/manifest/manifest.test.ts': 7,
  'plugins/webhooks/routes.test.ts': 7,
  'plugins/webhooks/delivery.test.ts': 7,
  'server/errors.test.ts': 7,
  'plugins/commerce/pages.test.ts': 7,
  'plugins/commerce/page-blocks.test.ts': 4,
  'plugins/installations/embeds.test.ts': 3,
  'plugins/apps/review.test.ts': 7,
  'plugins/storefront/pages.test.ts': 6,
  // files added after the table was first made: estimated from single-file runs on a loaded machine
  'plugins/auth/throttle.test.ts': 22,
  'fuzz/openapi-fuzz.test.ts': 20,
  'server/url-policy.test.ts': 12,
  'plugins/webhooks/replay.test.ts': 10,
  'plugins/apps/manifest/regex.test.ts': 10,
  'plugins/apps/manifest/pattern-budget.test.ts': 10,
  'plugins/oauth/standard-clients.test.ts': 10,
  'openapi/generated-client.test.ts': 10,
  'server/origins.test.ts': 10,
  'plugins/auth/logout.test.ts': 10,
  'server/input-guard.test.ts': 8,
  'plugins/oauth/malformed.test.ts': 8,
  'plugins/oauth/discovery-revocation.test.ts': 8,
  'plugins/apps/platform-urls.test.ts': 8,
  'plugins/storefront/csp.test.ts': 8,
  'server/backup.test.ts': 40,
  'cli/listen.test.ts': 25,
  'cli/listen-signals.test.ts': 20,
  'plugins/downloads/downloads.test.ts': 25,
  'cli/commands.test.ts': 25,
  'plugins/oauth/device.test.ts': 13,
  'plugins/auth/cli-tokens.test.ts': 6,
  'plugins/relay/relay.test.ts': 6,
  'plugins/app-checks/demo-seed.test.ts': 30,
  '../examples/reference-app/test/checkout.test.ts': 30,
  '../examples/reference-app/test/webhooks.test.ts': 25,
  '../examples/reference-app/test/pages.test.ts': 20,
  '../examples/reference-app/test/install.test.ts': 20
}
const DEFAULT_WEIGHT = 3

/**
 * Files whose outcome does not depend on the database (the SDK, the contract, the architecture and
 * docs checks, the OpenAPI document, which is rendered on an in-memory database of its own): the
 * run on PostgreSQL (`DATABASE_URL` set) leaves them to the PGlite run instead of repeating them.
 */
const DATABASE_INDEPENDENT = ['sdk/', 'contract/', 'architecture/', 'docs/', 'openapi/openapi.test.ts', 'openapi/generated-client.test.ts']
export const runsOnThisDatabase = (file: string, databaseUrl = process.env.DATABASE_URL): boolean =>
  databaseUrl === undefined || databaseUrl === '' || !DATABASE_INDEPENDENT.some((prefix) => file.startsWith(prefix))

/**
 * A file's budget inside its group: generous enough for a machine loaded four times over (tests wait
 * for work, so a busy machine makes them slower, not red), short enough that one stalled file fails
 * alone, named, while the rest of its group still runs. tap's own per-process timeout (package.json)
 * is only the backstop.
 */
const MIN_FILE_TIMEOUT_S = 240
const TIMEOUT_PER_WEIGHT = 12
export const fileTimeout = (file: string): number => 1000 * Math.max(MIN_FILE_TIMEOUT_S, TIMEOUT_PER_WEIGHT * (WEIGHTS[file] ?? DEFAULT_WEIGHT))

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

/** Heaviest file first into the lightest group: the same files give the same groups on every machine. */
export function groups (): string[][] {
  const bins = Array.from({ length: SHARD_COUNT }, () => ({ files: [] as string[], load: 0 }))
  const weighted = [...testFiles(TEST_ROOT), ...exampleTestFiles()].filter((file) => runsOnThisDatabase(file))
    .map((file) => ({ file, weight: WEIGHTS[file] ?? DEFAULT_WEIGHT }))
  weighted.sort((a, b) => b.weight - a.weight || a.file.localeCompare(b.file))
  for (const { file, weight } of weighted) {
    const lightest = bins.reduce((min, bin) => (bin.load < min.load ? bin : min))
    lightest.files.push(file)
    lightest.load += weight
  }
  return bins.map((bin) => bin.files.sort())
}

type TestArgs = Parameters<typeof t.test>

/**
 * Imports `files` (paths under test/) into this process. Each file's top-level tests register on the
 * root test while the file is imported; they are registered under the file's name and with its
 * timeout, so a failure or a stall names the file it belongs to and the files after it still run.
 */
export async function runFiles (files: string[], timeoutOf: (file: string) => number = fileTimeout): Promise<void> {
  const rootTest = t.test.bind(t)
  const rootSetTimeout = t.setTimeout.bind(t)
  // a file's t.setTimeout at the top level would set the whole group's budget (and end every file after it)
  t.setTimeout = (() => { throw new Error('A grouped test file may not set the root timeout: give the file a weight in test/shards/shards.ts') }) as typeof t.setTimeout
  try {
    for (const file of files) {
      t.test = ((...args: TestArgs) => {
        const name = args.find((arg) => typeof arg === 'string') ?? '(unnamed)'
        const options = args.find((arg) => typeof arg === 'object' && arg !== null) ?? {}
        const fn = args.find((arg) => typeof arg === 'function')
        return rootTest(`${file} › ${name as string}`, { timeout: timeoutOf(file), ...options as object }, fn as never)
      }) as typeof t.test
      await import(pathToFileURL(join(TEST_ROOT, file)).href)
    }
  } finally {
    t.test = rootTest
    t.setTimeout = rootSetTimeout
  }
}

/** Imports group `n` (1-based) into this process. */
export async function runShard (n: number): Promise<void> {
  await runFiles(groups()[n - 1])
}
