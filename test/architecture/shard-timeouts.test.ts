import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import t from 'tap'
import { readParts } from '../shards/weights.ts'

const GROUP = fileURLToPath(new URL('./fixtures/stall-group.ts', import.meta.url))
const LAST = /ok 3 - architecture\/fixtures\/passes-after\.ts › adds up after/

t.test('a stalled file in a test group fails alone, named, and the group goes on', async (t) => {
  const child = spawn(process.execPath, ['--import=tsx', GROUP], { stdio: ['ignore', 'pipe', 'ignore'] })
  t.teardown(() => { child.kill('SIGKILL') })
  // the stalled test keeps a timer alive, as a hung socket would: read until the last file has run
  const out = await new Promise<string>((resolve) => {
    let text = ''
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => { text += chunk; if (LAST.test(text)) resolve(text) })
    child.on('exit', () => { resolve(text) })
  })
  t.match(out, /ok 1 - architecture\/fixtures\/passes\.ts › adds up/)
  t.match(out, /not ok 2 - architecture\/fixtures\/stalls\.ts › waits for ever/, 'the failure names the file')
  t.match(out, /not ok 1 - timeout!/)
  t.match(out, LAST, 'the file after the stalled one still runs')
})

t.test('a grouped file may not set the root timeout (it would be the whole group\'s and end the files after it)', async (t) => {
  const group = fileURLToPath(new URL('./fixtures/sets-timeout-group.ts', import.meta.url))
  const child = spawn(process.execPath, ['--import=tsx', group], { stdio: ['ignore', 'ignore', 'pipe'] })
  t.teardown(() => { child.kill('SIGKILL') })
  let stderr = ''
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => { stderr += chunk })
  const [code] = await once(child, 'exit') as [number | null]
  t.not(code, 0, 'the group fails')
  t.match(stderr, /may not set the root timeout: give the file a weight \(test\/shards\/weights\.json\)/)
})

t.test('each group keeps what its files took, two groups at once each in a part of its own', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'shard-weights-'))
  t.teardown(() => { rmSync(dir, { recursive: true, force: true }) })
  const group = fileURLToPath(new URL('./fixtures/record-group.ts', import.meta.url))
  const run = async (name: string) => {
    const child = spawn(process.execPath, ['--import=tsx', group, name], { stdio: 'ignore', env: { ...process.env, TEST_WEIGHTS_DIR: dir } })
    t.teardown(() => { child.kill('SIGKILL') })
    const [code] = await once(child, 'exit') as [number | null]
    return code
  }
  t.same(await Promise.all([run('pglite-1'), run('pglite-2')]), [0, 0], 'both groups pass')
  const parts = readParts(dir).sort((a, b) => a.name.localeCompare(b.name))
  t.same(parts.map((part) => part.name), ['pglite-1', 'pglite-2'])
  for (const part of parts) {
    t.same(Object.keys(part.seconds).sort(), ['architecture/fixtures/busy.ts', 'architecture/fixtures/passes.ts'], `${part.name} names its files`)
    t.ok(part.seconds['architecture/fixtures/busy.ts'] >= 0.25, `${part.name}: the busy file's quarter second is counted`)
    t.ok(part.seconds['architecture/fixtures/passes.ts'] < part.seconds['architecture/fixtures/busy.ts'], `${part.name}: the quick file is lighter`)
  }
})
