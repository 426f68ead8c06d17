import t from 'tap'
import type { Test } from 'tap'
import { execFile, spawn, type ChildProcess } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { build, listen, uniqueEmail, until, within, portsOf } from '../helper.ts'
import { freePort } from '../process.ts'
import { launch, screenshot } from './browser.ts'

const run = promisify(execFile)
const GUIDE = fileURLToPath(new URL('../../docs/build-your-first-app.md', import.meta.url))
/** The platform's address and the app's port the guide is written for: the test puts its own server's and a free port in their place. */
const GUIDE_PLATFORM = 'http://localhost:3000'
const GUIDE_APP_PORT = '8787'
/** DESIGN §22: Ctrl-C ends `listen` within a second. */
const STOP_WITHIN_MS = 1000
/** How long one block may take: npm installs from the platform's URLs under a loaded machine. */
const BLOCK_TIMEOUT_MS = 240_000

/** One block of the guide: a `sh` block (typed in a terminal: 1 unless `terminal=N`) or a `js` file to write (`file=NAME`). */
export interface GuideBlock { kind: 'sh' | 'file', terminal: string, file: string, text: string }

/** The guide's `sh` and `js` blocks, in order: what a developer types and writes. */
export function guideBlocks (markdown: string): GuideBlock[] {
  return [...markdown.matchAll(/```(sh|js)([^\n]*)\n([\s\S]*?)```/g)].map((match) => {
    const info = Object.fromEntries([...(match[2] ?? '').matchAll(/(\w+)=(\S+)/g)].map((pair) => [pair[1], pair[2]]))
    return { kind: match[1] === 'sh' ? 'sh' : 'file', terminal: info.terminal ?? '1', file: info.file ?? '', text: match[3] ?? '' }
  })
}

/** A plain environment: no tsx loader or workspace condition inherited from the test runner, npm's cache used first, a config home of its own. */
function plainEnv (configHome: string): NodeJS.ProcessEnv {
  const { NODE_OPTIONS: _ignored, ...env } = process.env
  return { ...env, XDG_CONFIG_HOME: configHome, npm_config_prefer_offline: 'true', npm_config_update_notifier: 'false', npm_config_fund: 'false' }
}

/**
 * A terminal: a shell in a process group of its own (as a terminal's foreground job is), its output
 * so far, and Ctrl-C (SIGINT to the whole group). The first terminal reads block after block on its
 * stdin, so `cd`, `export` and background jobs carry over, as typing them would.
 */
class Terminal {
  readonly child: ChildProcess
  output = ''
  readonly exited: Promise<number | null>
  private blocks = 0

  constructor (t: Test, cwd: string, env: NodeJS.ProcessEnv, private readonly scratch: string, script?: string) {
    this.child = spawn('bash', script === undefined ? ['--norc', '--noprofile', '-e'] : ['--norc', '--noprofile', '-e', '-c', script], { cwd, env, detached: true, stdio: ['pipe', 'pipe', 'pipe'] })
    const keep = (chunk: Buffer) => { this.output += String(chunk) }
    this.child.stdout?.on('data', keep)
    this.child.stderr?.on('data', keep)
    this.exited = new Promise((resolve) => this.child.once('close', resolve))
    t.teardown(() => { this.signal('SIGKILL') })
  }

  signal (signal: NodeJS.Signals): void {
    try { process.kill(-(this.child.pid ?? 0), signal) } catch { /* the group is gone */ }
  }

  /** Types a block; resolves once it has run, with what it printed. A failed command ends the shell (-e), and the test with it. */
  async type (text: string, waiting?: (output: string) => Promise<void>): Promise<string> {
    const n = ++this.blocks
    const file = join(this.scratch, `block-${n}.sh`)
    writeFileSync(file, text)
    const from = this.output.length
    const done = `__block_${n}_done__`
    this.child.stdin?.write(`source ${file}\necho ${done}\n`)
    if (waiting !== undefined) await waiting(this.output.slice(from))
    await this.until((output) => output.includes(done), `block ${n} to finish:\n${text}`)
    return this.output.slice(from).replace(`${done}\n`, '')
  }

  /** Waits for the terminal's output to satisfy `test`; fails with the output when the shell ends first or the time is up. */
  async until (test: (output: string) => boolean, what: string, timeout = BLOCK_TIMEOUT_MS): Promise<void> {
    let ended = false
    void this.exited.then(() => { ended = true })
    await until(async () => ended || test(this.output), (ok) => ok, timeout).catch(() => {})
    if (!test(this.output)) throw new Error(`waited for ${what}; the terminal ${ended ? 'ended' : 'still runs'}, its output:\n${this.output}`)
  }
}

t.test('the guide, block by block, in a folder outside the repository, against a running server', async (t) => {
  const app = await build(t, { env: { DEVICE_POLL_INTERVAL_SECONDS: '1' } })
  const base = await listen(app)
  const appPort = String(await freePort())
  const outside = mkdtempSync(join(tmpdir(), 'first-app-'))
  const scratch = mkdtempSync(join(tmpdir(), 'first-app-shell-'))
  t.teardown(() => { rmSync(outside, { recursive: true, force: true }); rmSync(scratch, { recursive: true, force: true }) })
  const env = plainEnv(join(scratch, 'config'))
  const blocks = guideBlocks(readFileSync(GUIDE, 'utf8'))
    .map((block) => ({ ...block, text: block.text.replaceAll(GUIDE_PLATFORM, base).replaceAll(GUIDE_APP_PORT, appPort) }))
  /** The guide's next block, which must be of the kind the test expects there: the test follows the page in its order. */
  const next = (kind: GuideBlock['kind'], terminal = '1'): GuideBlock => {
    const block = blocks.shift()
    if (block === undefined || block.kind !== kind || block.terminal !== terminal) throw new Error(`the guide's next block is ${JSON.stringify(block)}, not a ${kind} block in terminal ${terminal}`)
    return block
  }
  const main = new Terminal(t, outside, env, scratch)
  const appDir = join(outside, 'first-app-work/my-first-app')
  const write = (block: GuideBlock) => { writeFileSync(join(appDir, block.file), block.text) }
  const browser = await launch(t)
  const page = await browser.newPage({ viewport: { width: 1100, height: 800 } })

  // 1. Sign up as a developer
  const email = uniqueEmail('guide')
  await page.goto(`${base}/register`)
  await page.getByLabel('Developer').check()
  await page.getByLabel('Name', { exact: true }).fill('Grace Guide')
  await page.getByLabel('Email').fill(email)
  await page.getByLabel(/^Password/).fill('correct-horse-guide')
  await page.getByRole('button', { name: 'Create account' }).click()
  await page.waitForURL((url) => url.pathname.startsWith('/portal'))
  t.pass('signed up in the browser; the portal')

  // 2. The CLI from the platform's URL
  const installed = await main.type(next('sh').text)
  t.match(installed.trim().split('\n').pop(), /^\d+\.\d+\.\d+$/, 'npx app-platform --version')

  // 3. Log in: the link opened in the signed-in browser, the code checked, Approve
  const loggedIn = await main.type(next('sh').text, async () => {
    await main.until((output) => /Open (\S+)/.test(output), 'the login link')
    const link = /Open (\S+)/.exec(main.output)?.[1] ?? ''
    const code = /Your code: (\S+)/.exec(main.output)?.[1] ?? ''
    await page.goto(link)
    await page.getByTestId('device-login').waitFor()
    t.equal(await page.getByLabel('Code').inputValue(), code, 'the code on the page is the terminal\'s')
    await page.getByRole('button', { name: 'Approve' }).click()
    await page.getByTestId('device-done').waitFor()
  })
  t.match(loggedIn, new RegExp(`Logged in to ${base.replace(/[.]/g, '\\.')} as ${email.replace(/[.+]/g, '\\$&')}`))

  // 4. Create the app
  const created = await main.type(next('sh').text)
  t.match(created, /Created my-first-app \(app_\w+\), a draft/)
  const appId = JSON.parse(readFileSync(join(appDir, 'app-platform.json'), 'utf8')).appId as string
  const pkg = JSON.parse(readFileSync(join(appDir, 'package.json'), 'utf8'))
  t.equal(pkg.dependencies['@app-platform/sdk'], `${base}/downloads/app-platform-sdk-0.1.0.tgz`, 'the SDK from the platform\'s URL')
  t.match(readFileSync(join(appDir, '.env'), 'utf8'), new RegExp(`PORT=${appPort}`))
  t.test('the SDK as installed from the platform\'s URL: ESM, CJS, types, LICENSE', async (t) => {
    const sdk = join(appDir, 'node_modules/@app-platform/sdk')
    const esm = await run(process.execPath, ['--input-type=module', '-e', 'const sdk = await import("@app-platform/sdk"); console.log(typeof sdk.verifyWebhook, typeof sdk.createDeveloperClient)'], { cwd: appDir, env })
    t.equal(esm.stdout.trim(), 'function function')
    const cjs = await run(process.execPath, ['-e', 'const sdk = require("@app-platform/sdk"); console.log(typeof sdk.verifyWebhook)'], { cwd: appDir, env })
    t.equal(cjs.stdout.trim(), 'function')
    t.equal(JSON.parse(readFileSync(join(sdk, 'package.json'), 'utf8')).types, './dist/index.d.ts')
    t.ok(readFileSync(join(sdk, 'LICENSE'), 'utf8').length > 0, 'LICENSE')
    t.match(readFileSync(join(sdk, 'dist/index.d.ts'), 'utf8'), /from '\.\/webhooks\.js'/, 'declarations that resolve (.js specifiers)')
    t.match(readFileSync(join(sdk, 'dist/webhooks.d.ts'), 'utf8'), /export declare function verifyWebhook/, 'types')
  })

  // 5. A webhook and a hook, pushed
  const pushed = await main.type(next('sh').text)
  t.match(pushed, /webhookEvents: \[\] → \["order.created"\]/, 'the settings diff')
  t.match(pushed, /\+ hook checkout\.shipping_rates/, 'the manifest diff')

  // 6. The endpoints of the app's own registrations
  write(next('file'))
  write(next('file'))
  await main.type(next('sh').text)

  // 7. Run it; Test install through the App URL; register the two webhooks
  await main.type(next('sh').text)
  const appLog = () => { try { return readFileSync(join(appDir, 'app.log'), 'utf8') } catch { return '' } }
  await until(async () => appLog(), (log) => log.includes('listening on'), 60_000)
  await page.goto(`${base}/portal/apps/${appId}/test`)
  await page.getByRole('link', { name: 'Test install through your app' }).click()
  await page.getByTestId('consent').waitFor()
  await screenshot(page, 'first-app-consent')
  await page.getByRole('button', { name: 'Install app' }).click()
  await page.getByRole('heading', { name: 'Installed' }).waitFor()
  const installation = JSON.parse(readFileSync(join(appDir, 'data/installation.json'), 'utf8'))
  t.match(installation, { accessToken: /^fbat_test_/, webhookSecret: /^whsec_test_/ }, 'the app, not the browser, received the token and the webhook secret')
  const registered = await main.type(next('sh').text)
  t.match(registered, /registered wh_\w+ and wh_\w+/)
  const secrets = JSON.parse(readFileSync(join(appDir, 'data/webhooks.json'), 'utf8'))
  t.match(secrets, { orders: /^whsec_[A-Za-z0-9+/]{43}=$/, audit: /^whsec_test_/ }, 'a Standard Webhooks secret as the package takes it, and a spec one')

  // 8. listen in a second terminal; trigger; a checkout's hook call; Ctrl-C
  const relay = new Terminal(t, outside, env, scratch, next('sh', '2').text)
  await relay.until((output) => output.includes('Ready: relaying'), 'listen to be ready')
  await main.type(next('sh').text)
  // a checkout on the sandbox store (the portal's Store link), with delivery: the shipping fee is the app's answer
  await page.goto(`${base}/portal`)
  const store = await page.getByTestId('sandbox-links').getByRole('link', { name: 'Store ↗' }).getAttribute('href') ?? ''
  await page.goto(store)
  await page.locator('.product-body h3 a').first().click()
  await page.getByRole('button', { name: 'Add to cart' }).click()
  await page.getByText(/to your cart\./).waitFor()
  await page.getByRole('link', { name: /^Cart/ }).click()
  await page.getByRole('link', { name: 'Check out' }).click()
  await page.getByText('Delivery fee set by the app my-first-app').waitFor()
  await screenshot(page, 'first-app-checkout')
  t.pass('the checkout took the app\'s shipping answer')
  const relayed = (path: string) => new RegExp(`→ http://localhost:${appPort}${path.replace(/[/.]/g, '\\$&')}\\s+200 `)
  for (const path of ['/webhooks', '/events/orders', '/events/audit', '/webhooks/hooks/shipping-rates']) {
    await relay.until((output) => relayed(path).test(output), `a call relayed to ${path}`)
  }
  t.pass('two registrations, the app\'s webhook and a hook, each relayed to its own path')
  await until(async () => appLog(), (log) => log.includes('orders: order.created verified with standardwebhooks') && log.includes('audit: order.created verified with the SDK'), 30_000)
  t.match(appLog(), /webhook order\.created/, 'the app\'s own webhook verified with the installation\'s secret')
  t.match(appLog(), /hook checkout\.shipping_rates/)
  t.match(appLog(), /orders: order\.created verified with standardwebhooks/, 'a Standard Webhooks delivery verified by the standardwebhooks package')
  const started = performance.now()
  relay.signal('SIGINT')
  await within(relay.exited, 10_000, 'listen to end on Ctrl-C')
  const stoppedIn = performance.now() - started
  t.ok(stoppedIn < STOP_WITHIN_MS, `Ctrl-C ended listen in ${Math.round(stoppedIn)} ms`)
  t.match(relay.output, /Stopped\./)

  // logs --since in a third terminal, then Ctrl-C
  await portsOf(app).checkoutHooks.flush()
  const tail = new Terminal(t, outside, env, scratch, next('sh', '3').text)
  await tail.until((output) => output.includes('Tailing'), 'logs to print the history and tail')
  t.match(tail.output, /webhook order\.created\s+200/, 'the deliveries of the last ten minutes')
  t.match(tail.output, /hook {4}checkout\.shipping_rates\s+200 .*\(relayed\)/, 'and the relayed hook call')
  tail.signal('SIGINT')
  await within(tail.exited, 10_000, 'logs to end on Ctrl-C')

  // 9. A spec-only app reads price as a number
  write(next('file'))
  const price = await main.type(next('sh').text)
  t.match(price, /: price \d+ \(number\)/, 'no apiVersion: the spec\'s shapes')

  // 10. Submit
  const submitted = await main.type(next('sh').text)
  t.match(submitted, /my-first-app is PENDING_REVIEW/)
  t.match(submitted, new RegExp(`${appId}\\s+my-first-app\\s+PENDING_REVIEW`), 'apps list shows it waiting for review')
  t.equal(blocks.length, 0, 'every block of the guide was run')
  main.child.stdin?.end()
  main.signal('SIGTERM')
})
