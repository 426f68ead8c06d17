/**
 * `npm run test:weights`: writes the measurements of the last group runs (`npm test`, on PGlite and, if
 * it ran, on PostgreSQL; or one group, `npx tap test/shards/3.test.ts`) into test/shards/weights.json,
 * and says what changed. Commit the file: a fresh clone balances its groups with it.
 */
import { existsSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { mergeWeights, readParts, readWeights, MEASUREMENTS_DIR, WEIGHTS_FILE } from './weights.ts'

const TEST_ROOT = fileURLToPath(new URL('..', import.meta.url))
const parts = readParts()
if (parts.length === 0) {
  console.error(`No measurements in ${MEASUREMENTS_DIR}: run the groups first (npm test, or npx tap test/shards/N.test.ts).`)
  process.exit(1)
}
const committed = readWeights()
const merged = mergeWeights(committed, parts, (file) => existsSync(join(TEST_ROOT, file)))
for (const file of new Set([...Object.keys(committed), ...Object.keys(merged)])) {
  if (committed[file] !== merged[file]) console.log(`${file}: ${committed[file] ?? '-'} → ${merged[file] ?? 'dropped'}`)
}
writeFileSync(WEIGHTS_FILE, JSON.stringify(merged, null, 2) + '\n')
console.log(`${WEIGHTS_FILE}: ${Object.keys(merged).length} files, from ${parts.map((part) => `${part.name} (${part.measuredAt})`).join(', ')}`)
