import t from 'tap'
import { execFile } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { build, listen } from '../helper.ts'

const run = promisify(execFile)
const GUIDE = fileURLToPath(new URL('../../docs/build-your-first-app.md', import.meta.url))
/** The address the guide is written for: the test puts its own server's in its place. */
const GUIDE_PLATFORM = 'http://localhost:3000'

/** The guide's `sh` blocks, in order: what a developer types. */
export function shellBlocks (markdown: string): string[] {
  return [...markdown.matchAll(/```sh\n([\s\S]*?)```/g)].map((match) => match[1] ?? '')
}

/** A plain environment: no tsx loader or workspace condition inherited from the test runner, npm's cache used first. */
function plainEnv (extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const { NODE_OPTIONS: _ignored, ...env } = process.env
  return { ...env, npm_config_prefer_offline: 'true', npm_config_update_notifier: 'false', ...extra }
}

t.test('the guide\'s first steps, in a folder outside the repository, against a running server', async (t) => {
  const app = await build(t)
  const base = await listen(app)
  const outside = mkdtempSync(join(tmpdir(), 'first-app-'))
  t.teardown(() => rmSync(outside, { recursive: true, force: true }))
  const blocks = shellBlocks(readFileSync(GUIDE, 'utf8')).map((block) => block.replaceAll(GUIDE_PLATFORM, base))
  t.ok(blocks.length >= 6, 'the guide has its steps')

  t.test('step 2 as written: the CLI from the platform\'s URL runs', async (t) => {
    const { stdout } = await run('bash', ['-e', '-c', blocks[0] ?? ''], { cwd: outside, env: plainEnv(), timeout: 300_000 })
    t.match(stdout.trim().split('\n').pop(), /^\d+\.\d+\.\d+/, 'npx app-platform --version')
  })

  t.test('the SDK from the platform\'s URL in an empty folder: ESM, CJS and types', async (t) => {
    const empty = join(outside, 'sdk-only')
    await run('bash', ['-e', '-c', `mkdir ${empty} && cd ${empty} && npm init -y > /dev/null && npm install --no-fund --no-audit "${base}/downloads/app-platform-sdk.tgz"`], { env: plainEnv(), timeout: 300_000 })
    const esm = await run(process.execPath, ['--input-type=module', '-e', 'const sdk = await import("@app-platform/sdk"); console.log(typeof sdk.verifyWebhook, typeof sdk.createDeveloperClient)'], { cwd: empty, env: plainEnv() })
    t.equal(esm.stdout.trim(), 'function function')
    const cjs = await run(process.execPath, ['-e', 'const sdk = require("@app-platform/sdk"); console.log(typeof sdk.verifyWebhook)'], { cwd: empty, env: plainEnv() })
    t.equal(cjs.stdout.trim(), 'function')
    const pkg = JSON.parse(readFileSync(join(empty, 'node_modules/@app-platform/sdk/package.json'), 'utf8'))
    t.equal(pkg.types, './dist/index.d.ts')
    t.ok(readFileSync(join(empty, 'node_modules/@app-platform/sdk/LICENSE'), 'utf8').length > 0, 'LICENSE')
    const dist = join(empty, 'node_modules/@app-platform/sdk/dist')
    t.match(readFileSync(join(dist, 'index.d.ts'), 'utf8'), /from '\.\/webhooks\.js'/, 'declarations that resolve (.js specifiers)')
    t.match(readFileSync(join(dist, 'webhooks.d.ts'), 'utf8'), /export declare function verifyWebhook/, 'types')
  })
})
