import { execFile } from 'node:child_process'
import { cp, mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import t from 'tap'

const run = promisify(execFile)
const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..')
const SDK = join(ROOT, 'sdk')
const TSC = join(ROOT, 'node_modules/typescript/bin/tsc')

/** A plain `node` and `npm`: no tsx loader or source condition inherited from the test runner. */
function plainEnv (): NodeJS.ProcessEnv {
  const { NODE_OPTIONS: _ignored, ...env } = process.env
  return { ...env, npm_config_audit: 'false', npm_config_fund: 'false', npm_config_update_notifier: 'false' }
}

/** Signs as the platform does, so the consumers can verify a delivery of each scheme. */
const SIGNING = `
  const { createHmac } = require('node:crypto')
  const secret = 'whsec_' + Buffer.alloc(32, 7).toString('base64')
  const body = '{"event":"webhook.test","timestamp":"2026-01-01T00:00:00Z","webhookId":"wh_1","businessId":"biz_1","data":{}}'
  const ts = Math.floor(Date.now() / 1000)
  const spec = { 'x-webhook-timestamp': String(ts), 'x-webhook-signature': 'sha256=' + createHmac('sha256', secret).update(ts + '.' + body).digest('hex'), 'x-service-event-id': 'dlv_1' }
  const standard = { 'webhook-id': 'dlv_2', 'webhook-timestamp': String(ts), 'webhook-signature': 'v1,' + createHmac('sha256', Buffer.alloc(32, 7)).update('dlv_2.' + ts + '.' + body).digest('base64') }
`

t.test('npm pack builds the SDK, and the tarball installs and runs in a fresh project', async (t) => {
  const scratch = await mkdtemp(join(tmpdir(), 'sdk-pack-'))
  t.teardown(() => rm(scratch, { recursive: true, force: true }))

  // packed from a copy of the package, so that prepack's clean and build never touch the sdk/dist that other
  // test files read meanwhile; the copy finds tsc and the types through the repository's node_modules
  const copy = join(scratch, 'workspace', 'sdk')
  await mkdir(copy, { recursive: true })
  for (const entry of ['src', 'package.json', 'tsconfig.json', 'README.md', 'LICENSE']) await cp(join(SDK, entry), join(copy, entry), { recursive: true })
  await symlink(join(ROOT, 'node_modules'), join(scratch, 'workspace', 'node_modules'), 'dir')
  // prepack builds: the tarball holds dist, README and LICENSE, and no source maps into a src/ it lacks
  const { stdout: packed } = await run('npm', ['pack', '--json', '--pack-destination', scratch], { cwd: copy, env: plainEnv(), maxBuffer: 16 * 1024 * 1024 })
  const [info] = JSON.parse(packed) as Array<{ filename: string, files: Array<{ path: string }> }>
  const files = info.files.map((file) => file.path)
  for (const expected of ['package.json', 'README.md', 'LICENSE', 'dist/index.js', 'dist/index.d.ts', 'dist/browser.js', 'dist/browser.d.ts']) {
    t.ok(files.includes(expected), `the tarball holds ${expected}`)
  }
  t.same(files.filter((file) => file.endsWith('.map') || file.startsWith('src/')), [], 'no source maps, no sources')
  const manifest = JSON.parse(await readFile(join(SDK, 'package.json'), 'utf8'))
  t.same(Object.keys(manifest.dependencies), ['@sinclair/typebox'], 'typebox is the one runtime dependency')

  const project = join(scratch, 'consumer')
  await run('mkdir', ['-p', project])
  await writeFile(join(project, 'package.json'), JSON.stringify({ name: 'consumer', private: true, version: '1.0.0' }))
  // offline: the SDK from the tarball, its dependency from the repository's own install (no registry)
  const typebox = join(ROOT, 'node_modules/@sinclair/typebox')
  await run('npm', ['install', '--offline', '--no-package-lock', `file:${typebox}`, join(scratch, info.filename)], { cwd: project, env: plainEnv() })

  t.test('an ES module consumer', async (t) => {
    await writeFile(join(project, 'esm.mjs'), `
      import { createRequire } from 'node:module'
      const require = createRequire(import.meta.url)
      ${SIGNING}
      const sdk = await import('@app-platform/sdk')
      const browser = await import('@app-platform/sdk/browser')
      console.log(JSON.stringify({
        spec: sdk.verifyWebhook(body, spec, secret).eventId, standard: sdk.verifyWebhook(body, standard, secret).eventId,
        client: typeof sdk.createAppApiClient, browser: typeof browser.connectBlock
      }))`)
    const { stdout } = await run(process.execPath, ['esm.mjs'], { cwd: project, env: plainEnv() })
    t.same(JSON.parse(stdout), { spec: 'dlv_1', standard: 'dlv_2', client: 'function', browser: 'function' })
  })

  t.test('a CommonJS consumer (require of the ES module, Node 20.19+)', async (t) => {
    await writeFile(join(project, 'cjs.cjs'), `
      ${SIGNING}
      const sdk = require('@app-platform/sdk')
      const browser = require('@app-platform/sdk/browser')
      console.log(JSON.stringify({ spec: sdk.verifyWebhook(body, spec, secret).eventId, standard: sdk.verifyWebhook(body, standard, secret).eventId, browser: typeof browser.connectBlock }))`)
    const { stdout } = await run(process.execPath, ['--no-warnings', 'cjs.cjs'], { cwd: project, env: plainEnv() })
    t.same(JSON.parse(stdout), { spec: 'dlv_1', standard: 'dlv_2', browser: 'function' })
  })

  for (const [name, compilerOptions] of [
    ['node10 (CommonJS)', { module: 'commonjs', moduleResolution: 'node10' }],
    ['nodenext', { module: 'nodenext', moduleResolution: 'nodenext' }],
    ['bundler', { module: 'esnext', moduleResolution: 'bundler' }]
  ] as const) {
    t.test(`a TypeScript consumer resolving with ${name}`, async (t) => {
      const dir = join(project, `ts-${compilerOptions.moduleResolution}`)
      await run('mkdir', ['-p', dir])
      await writeFile(join(dir, 'tsconfig.json'), JSON.stringify({
        compilerOptions: { ...compilerOptions, target: 'ES2022', strict: true, noEmit: true, lib: ['ES2023', 'DOM'], types: ['node'], typeRoots: [join(ROOT, 'node_modules/@types')] },
        files: ['main.ts']
      }))
      await writeFile(join(dir, 'main.ts'), [
        "import { verifyWebhook, createAppApiClient, type WebhookEvent, type Product, type SignatureScheme } from '@app-platform/sdk'",
        "import { connectBlock, type BlockInitMessage } from '@app-platform/sdk/browser'",
        "const event: WebhookEvent = verifyWebhook('{}', { 'webhook-signature': 'v1,x' }, 'whsec_x')",
        "const scheme: SignatureScheme = 'standard-webhooks'",
        "const client = createAppApiClient({ baseUrl: 'http://localhost', accessToken: 'fbat_x' })",
        'const onInit = (m: BlockInitMessage): void => { console.log(m.blockId, event.event, scheme) }',
        'export type Listed = Product',
        'export { client, onInit, connectBlock }',
        ''
      ].join('\n'))
      const result = await run(process.execPath, [TSC, '-p', dir], { cwd: dir, env: plainEnv() }).then(() => 'ok', (error: { stdout: string }) => error.stdout)
      t.equal(result, 'ok')
    })
  }
})
