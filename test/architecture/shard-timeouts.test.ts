import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { fileURLToPath } from 'node:url'
import t from 'tap'

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
  t.match(stderr, /may not set the root timeout: give the file a weight in test\/shards\/shards\.ts/)
})
