import { spawn } from 'node:child_process'
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
