import t from 'tap'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { spawnSync } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { buildApp } from '../../server/app.ts'
import { loadConfig } from '../../server/config.ts'
import { DEMO_ACCOUNTS, demoAccountRefusal, seedDemo } from '../../server/seed.ts'
import { build } from '../helper.ts'
import { freePort, startServer, stopServer } from '../process.ts'

const ENCRYPTION_KEY = randomBytes(32).toString('hex')

/** `server/main.ts` run to its exit: its status and what it wrote to stderr. */
function runToExit (env: Record<string, string>) {
  const result = spawnSync(process.execPath, ['--conditions=app-platform-source', '--import', 'tsx', 'server/main.ts'], {
    env: { PATH: process.env.PATH, HOST: '127.0.0.1', LOG_LEVEL: 'silent', ...env }, encoding: 'utf8', timeout: 90_000
  })
  return { status: result.status, lines: result.stderr.trim().split('\n') }
}

t.test('a production start refuses while a demo account exists', async (t) => {
  const app = await build(t, { env: { PLATFORM_ENV: 'production' } })
  t.equal(await demoAccountRefusal(app), null, 'no demo account: no refusal')
  await seedDemo(app)
  t.match(await demoAccountRefusal(app), new RegExp(`^Refusing to start in production: demo accounts ${DEMO_ACCOUNTS.reviewer}, ${DEMO_ACCOUNTS.developer}, ${DEMO_ACCOUNTS.merchant} .*ALLOW_DEMO_ACCOUNTS=true$`))

  const allowed = await build(t, { env: { PLATFORM_ENV: 'production', ALLOW_DEMO_ACCOUNTS: 'true' } })
  await seedDemo(allowed)
  t.equal(await demoAccountRefusal(allowed), null, 'ALLOW_DEMO_ACCOUNTS=true lets it start')
  const development = await build(t)
  await seedDemo(development)
  t.equal(await demoAccountRefusal(development), null, 'development keeps its demo')
})

t.test('the attack: demo accounts seeded on the embedded database do not survive into a production start', async (t) => {
  const dataDir = mkdtempSync(join(tmpdir(), 'platform-production-'))
  t.teardown(() => rmSync(dataDir, { recursive: true, force: true }))
  // a development run seeded the demo into DATA_DIR
  const seeded = await buildApp({ config: loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent', DEMO_SEED: 'false' }) })
  await seeded.ready()
  await seedDemo(seeded)
  await seeded.close()

  const port = String(await freePort())
  // the storefront's port too: PORT + 1 may be taken on a busy machine
  const production = { PORT: port, STOREFRONT_PORT: String(await freePort()), DATA_DIR: dataDir, PLATFORM_ENV: 'production', ENCRYPTION_KEY }
  const refused = runToExit({ ...production, DEMO_SEED: 'false' })
  t.equal(refused.status, 1)
  t.equal(refused.lines.length, 1, refused.lines.join('\n'))
  t.match(refused.lines[0], /^Refusing to start in production: demo accounts .*reviewer@demo\.test.*ALLOW_DEMO_ACCOUNTS=true$/)

  const server = await startServer({ ...production, ALLOW_DEMO_ACCOUNTS: 'true' })
  t.teardown(() => { server.child.kill('SIGKILL') })
  t.notMatch(server.output(), /Demo logins/, 'a production start never prints the demo logins')
  t.equal(await stopServer(server), 0)
})

t.test('production refuses weak settings, each with one line naming the setting', async (t) => {
  const dataDir = mkdtempSync(join(tmpdir(), 'platform-production-'))
  t.teardown(() => rmSync(dataDir, { recursive: true, force: true }))
  const base = { PORT: String(await freePort()), STOREFRONT_PORT: String(await freePort()), DATA_DIR: dataDir, PLATFORM_ENV: 'production' }
  const cases: Array<[string, Record<string, string>, RegExp]> = [
    ['a missing ENCRYPTION_KEY', {}, /^Invalid configuration: ENCRYPTION_KEY .*required when PLATFORM_ENV=production/],
    ['a short JWT_SECRET, not echoed', { ENCRYPTION_KEY, JWT_SECRET: 'changeme' }, /^Invalid configuration: JWT_SECRET=\(hidden\) /],
    ['the demo seed', { ENCRYPTION_KEY, DEMO_SEED: 'true' }, /^Invalid configuration: DEMO_SEED=true is development-only/]
  ]
  for (const [name, env, pattern] of cases) {
    const result = runToExit({ ...base, ...env })
    t.equal(result.status, 1, name)
    t.equal(result.lines.length, 1, `${name}: one line`)
    t.match(result.lines[0], pattern, name)
  }
  t.equal(loadConfig({ ...base, ENCRYPTION_KEY }).demoSeed, false, 'DEMO_SEED unset seeds nothing in production')
  t.equal(loadConfig({ DATA_DIR: dataDir }).demoSeed, true, 'while development seeds by default')
})
