import t from 'tap'
import { spawnSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { bundleDir, ensureServerBuilt, isBundleCurrent, serverSourcesHash } from '../../server/build-server.js'

/**
 * A checkout's server in miniature: tracing's module, a main that imports a workspace package (bundled, with
 * the app-platform-source condition) and an installed one (left external), and reads a file beside its source
 * through import.meta.url, as the migrations, sample images and storefront assets are read.
 */
function miniature (): string {
  const root = mkdtempSync(join(tmpdir(), 'app-platform-server-'))
  for (const dir of ['server/db/migrations', 'plugins/x', 'node_modules/@app-platform/lib/src']) mkdirSync(join(root, dir), { recursive: true })
  writeFileSync(join(root, 'package.json'), '{ "type": "module" }')
  writeFileSync(join(root, 'package-lock.json'), '{}')
  writeFileSync(join(root, 'server/telemetry-start.ts'), 'export const telemetry: string = "tracing first"\nconsole.log(telemetry)\n')
  writeFileSync(join(root, 'server/db/migrations/0001.sql'), 'create table t (id int);')
  writeFileSync(join(root, 'server/main.ts'), [
    "import { readFileSync } from 'node:fs'",
    "import { greeting } from '@app-platform/lib'",
    "import { word } from '../plugins/x/word.ts'",
    "const migration: string = readFileSync(new URL('./db/migrations/0001.sql', import.meta.url), 'utf8')",
    'console.log(greeting, word, migration)'
  ].join('\n'))
  writeFileSync(join(root, 'plugins/x/word.ts'), 'export const word: string = "world"')
  writeFileSync(join(root, 'node_modules/@app-platform/lib/package.json'), JSON.stringify({ name: '@app-platform/lib', type: 'module', exports: { '.': { 'app-platform-source': './src/index.ts', default: './dist/index.js' } } }))
  writeFileSync(join(root, 'node_modules/@app-platform/lib/src/index.ts'), 'export const greeting: string = "hello"')
  return root
}

/** What the bundle prints, run as server/start.js runs it: tracing's entry first, then main. */
function runBundle (entries: Record<string, string>): string {
  const script = `await import(${JSON.stringify(entries['telemetry-start'])}); await import(${JSON.stringify(entries.main)})`
  const result = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8', timeout: 30_000 })
  if (result.status !== 0) throw new Error(result.stderr)
  return result.stdout
}

t.test('the server is bundled on the first start and again when any of its code changed, and only then', async (t) => {
  const root = miniature()
  t.teardown(() => rmSync(root, { recursive: true, force: true }))
  const hash = serverSourcesHash(root)
  t.equal(serverSourcesHash(root), hash, 'the same sources, the same hash')
  t.notOk(isBundleCurrent(hash, bundleDir(root)), 'no bundle yet')

  const first = await ensureServerBuilt(root)
  t.equal(first.problem, null)
  t.ok(isBundleCurrent(hash, bundleDir(root)), 'bundled and stamped')
  t.equal(runBundle(first.entries as Record<string, string>), 'tracing first\nhello world create table t (id int);\n',
    'tracing runs first, the workspace package is bundled from its sources, a file beside a source is read from the sources')

  writeFileSync(join(root, 'server/db/migrations/0002.sql'), 'create table u (id int);')
  t.equal(serverSourcesHash(root), hash, 'a new migration is read at run time, not bundled: no new bundle')
  writeFileSync(join(root, 'plugins/x/word.ts'), 'export const word: string = "there"')
  t.not(serverSourcesHash(root), hash, 'an edited plugin')
  t.notOk(isBundleCurrent(serverSourcesHash(root), bundleDir(root)), 'is bundled again')
  const second = await ensureServerBuilt(root)
  t.match(runBundle(second.entries as Record<string, string>), /hello there/, 'and the new bundle runs the edited code')
  writeFileSync(join(root, 'node_modules/@app-platform/lib/src/extra.ts'), '')
  t.equal(serverSourcesHash(root), serverSourcesHash(root), 'stable')
  writeFileSync(join(root, 'server/new.ts'), '')
  t.notOk(isBundleCurrent(serverSourcesHash(root), bundleDir(root)), 'a new file of the server, even an empty one')
})

t.test('a bundle that cannot be made leaves the sources to run, with the reason', async (t) => {
  const root = miniature()
  t.teardown(() => rmSync(root, { recursive: true, force: true }))
  writeFileSync(join(root, 'server/main.ts'), 'export const broken = (')
  const result = await ensureServerBuilt(root)
  t.equal(result.entries, null)
  t.match(result.problem, /could not be bundled .*running its TypeScript sources instead/)
})

t.test("npm start's command runs the checkout's bundle: a bad setting stops it with the one line", async (t) => {
  const result = spawnSync(process.execPath, ['--conditions=app-platform-source', 'server/start.js'], {
    env: { PATH: process.env.PATH, PORT: 'abc' },
    encoding: 'utf8',
    timeout: 60_000
  })
  t.equal(result.status, 1, result.stderr)
  t.match(result.stderr.trim(), /^Invalid configuration: PORT="abc"/)
  t.ok(isBundleCurrent(serverSourcesHash()), 'the bundle was made from these sources')
})
