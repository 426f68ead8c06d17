import t from 'tap'
import { execFile } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'

/**
 * The lint rules behind "tests wait for work, the server reads one clock" (eslint.config.js), on
 * planted code: each plant must be refused where the rule applies and let through where it does not.
 * ESLint runs once, in a plain Node child (its config loads its plugins as Node does, not through tsx).
 */
const root = fileURLToPath(new URL('../..', import.meta.url))
const LINT = `import { ESLint } from 'eslint'
const eslint = new ESLint({ cwd: process.cwd() })
const out = []
for (const { code, file } of JSON.parse(process.argv[1])) {
  const [result] = await eslint.lintText(code, { filePath: process.cwd() + '/' + file })
  out.push(result.messages.filter((m) => m.ruleId === 'no-restricted-syntax').map((m) => m.message))
}
process.stdout.write(JSON.stringify(out))`

const SLEEP = 'export async function f () { await new Promise((resolve) => setTimeout(resolve, 1100)) }\n'
const PLANTS: Array<{ what: string, code: string, file: string, refused: boolean }> = [
  { what: 'a setTimeout promise in a test', code: SLEEP, file: 'test/plugins/planted.test.ts', refused: true },
  { what: 'timers/promises in a test', code: "import { setTimeout as sleep } from 'node:timers/promises'\nexport const f = async () => { await sleep(10) }\n", file: 'test/server/planted.test.ts', refused: true },
  { what: 'timers/promises (no node:) in a fixture', code: "import { setTimeout } from 'timers/promises'\nexport const f = async () => { await setTimeout(10) }\n", file: 'test/plugins/webhooks/planted.ts', refused: true },
  { what: "Playwright's waitForTimeout", code: 'export async function f (page: { waitForTimeout: (ms: number) => Promise<void> }) { await page.waitForTimeout(200) }\n', file: 'test/sdk/planted.test.ts', refused: true },
  { what: "Playwright's waitForTimeout in a browser test", code: 'export async function f (page: { waitForTimeout: (ms: number) => Promise<void> }) { await page.waitForTimeout(200) }\n', file: 'test/e2e/planted.test.ts', refused: true },
  { what: 'a setTimeout promise in a browser test', code: SLEEP, file: 'test/e2e/planted.test.ts', refused: true },
  { what: 'test/wait.ts, the one helper with a timer', code: SLEEP, file: 'test/wait.ts', refused: false },
  { what: 'a receiver answering late by a callback (no wait)', code: 'export function late (send: () => void) { setTimeout(send, 60_000).unref() }\n', file: 'test/plugins/planted.ts', refused: false },
  { what: 'Date.now() in a plugin', code: 'export const at = () => Date.now()\n', file: 'plugins/commerce/planted.ts', refused: true },
  { what: 'new Date() in the server', code: 'export const at = () => new Date()\n', file: 'server/planted.ts', refused: true },
  { what: 'a Date made from a number (no clock read)', code: 'export const at = (ms: number) => new Date(ms)\n', file: 'server/planted.ts', refused: false },
  { what: 'elapsed real time (performance.now())', code: 'export const took = (started: number) => performance.now() - started\n', file: 'plugins/planted.ts', refused: false },
  { what: 'a listed exception (wall time on purpose)', code: 'export const at = () => Date.now()\n', file: 'server/backup.ts', refused: false }
]

t.test('fixed waits in tests and direct clock reads in the server are refused, and only they', async (t) => {
  const { stdout } = await promisify(execFile)(process.execPath, ['--input-type=module', '-e', LINT, JSON.stringify(PLANTS.map(({ code, file }) => ({ code, file })))], { cwd: root })
  const results = JSON.parse(stdout) as string[][]
  PLANTS.forEach((plant, i) => {
    t.equal(results[i].length, plant.refused ? 1 : 0, `${plant.what} (${plant.file}): ${plant.refused ? 'refused' : 'allowed'}${results[i].length > 0 ? `: ${results[i].join('; ')}` : ''}`)
  })
})
