import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import t from 'tap'
import { DEFAULT_WEIGHT, fileTimeout, groupedFiles, groups, runsOnThisDatabase, SHARD_COUNT, unitFiles, weightOf } from '../shards/shards.ts'
import { mergeWeights, readWeights, type Part } from '../shards/weights.ts'

const TEST_ROOT = fileURLToPath(new URL('..', import.meta.url))

t.test('the PostgreSQL run repeats only the files whose outcome depends on the database', async (t) => {
  const server = 'postgres://postgres@127.0.0.1:5432/platform_ci'
  for (const file of ['sdk/pack.test.ts', 'contract/drift.test.ts', 'architecture/boundaries.test.ts', 'docs/links.test.ts', 'openapi/openapi.test.ts', 'openapi/generated-client.test.ts',
    'server/url-policy.unit.test.ts', '../examples/reference-app/test/money-versions.unit.test.ts']) {
    t.ok(runsOnThisDatabase(file, undefined), `${file} runs on PGlite`)
    t.notOk(runsOnThisDatabase(file, server), `${file} is not repeated on PostgreSQL`)
  }
  for (const file of ['openapi/schema-vs-code.test.ts', 'plugins/webhooks/processes.test.ts', 'server/db.test.ts', 'cli/listen.test.ts', '../examples/reference-app/test/checkout.test.ts']) {
    t.ok(runsOnThisDatabase(file, undefined), `${file} runs on PGlite`)
    t.ok(runsOnThisDatabase(file, server), `${file} runs on PostgreSQL too`)
  }
  t.ok(runsOnThisDatabase('sdk/pack.test.ts', ''), 'an empty DATABASE_URL is the embedded database')
})

t.test('the unit tier runs in the groups too', async (t) => {
  const grouped = groupedFiles(undefined)
  t.ok(unitFiles().length > 0)
  t.same(unitFiles().filter((file) => !grouped.includes(file)), [], 'no unit file is left out of npm test on PGlite')
})

t.test('the measured weights (test/shards/weights.json) name files of the groups, in seconds', async (t) => {
  const weights = readWeights()
  const files = Object.keys(weights)
  t.ok(files.length > 50, 'most files have a figure')
  t.same(files.filter((file) => !existsSync(join(TEST_ROOT, file))), [], 'no figure for a file that is gone: npm run test:weights drops them')
  t.same(files.filter((file) => !(Number.isFinite(weights[file]) && weights[file] > 0)), [], 'every figure a positive number')
  t.same(files, [...files].sort(), 'sorted, so a refresh shows as a readable diff')
})

t.test('a file\'s budget follows its measured weight; a file without one has the default', async (t) => {
  const weights = readWeights()
  const [heaviest] = Object.keys(weights).sort((a, b) => weights[b] - weights[a])
  t.equal(weightOf(heaviest), weights[heaviest])
  t.equal(fileTimeout(heaviest), 1000 * Math.max(240, 12 * weights[heaviest]))
  t.equal(weightOf('plugins/new-feature/new.test.ts'), DEFAULT_WEIGHT)
  t.equal(fileTimeout('plugins/new-feature/new.test.ts'), 240_000, 'the floor of a file\'s budget')
})

t.test('the groups hold every file once, balanced by weight', async (t) => {
  const all = groupedFiles()
  const bins = groups()
  t.equal(bins.length, SHARD_COUNT)
  t.same(bins.flat().sort(), [...all].sort(), 'each file in exactly one group')
  const loads = bins.map((files) => files.reduce((sum, file) => sum + weightOf(file), 0))
  const mean = loads.reduce((a, b) => a + b, 0) / SHARD_COUNT
  const heaviestFile = Math.max(...all.map(weightOf))
  // heaviest first into the lightest group is within 4/3 of the best possible, which is at least the mean and the heaviest file
  t.ok(Math.max(...loads) <= (4 / 3) * Math.max(mean, heaviestFile), `loads ${loads.map((load) => load.toFixed(0)).join(', ')}`)
  const reweighed = groups((file) => (file === 'server/db/ids.unit.test.ts' ? 10_000 : weightOf(file)))
  t.same(reweighed.find((files) => files.includes('server/db/ids.unit.test.ts')), ['server/db/ids.unit.test.ts'], 'a heavy enough file has a group to itself')
})

t.test('test:weights merges the groups\' parts into the committed figures', async (t) => {
  const part = (name: string, measuredAt: string, seconds: Record<string, number>): Part => ({ name, measuredAt, seconds })
  const committed = { 'a.test.ts': 10, 'b.test.ts': 4, 'gone.test.ts': 7, 'c.test.ts': 2 }
  const parts = [
    part('pglite-1', '2026-11-28T10:00:00.000Z', { 'a.test.ts': 12.34, 'new.test.ts': 0.01 }),
    part('pglite-2', '2026-11-27T10:00:00.000Z', { 'b.test.ts': 9 }),
    part('pglite-5', '2026-11-28T10:00:00.000Z', { 'b.test.ts': 3 }),
    part('postgres-1', '2026-11-28T11:00:00.000Z', { 'a.test.ts': 15.06 })
  ]
  t.same(mergeWeights(committed, parts, (file) => file !== 'gone.test.ts'), {
    'a.test.ts': 15.1,
    'b.test.ts': 3,
    'c.test.ts': 2,
    'new.test.ts': 0.1
  }, 'the larger of the databases, the newest of a database\'s parts, unmeasured files kept, gone ones dropped, one decimal, at least 0.1 s')
})
