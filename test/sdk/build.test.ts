import { execFile } from 'node:child_process'
import { existsSync } from 'node:fs'
import { mkdir, mkdtemp, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import t, { type Test } from 'tap'

const run = promisify(execFile)
const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..')
const SDK = join(ROOT, 'sdk')
const DIST = join(SDK, 'dist')

/** The environment of a plain `node`: no tsx loader inherited from the test runner. */
function plainEnv (): NodeJS.ProcessEnv {
  const { NODE_OPTIONS: _ignored, ...env } = process.env
  return env
}

/** A throwaway project that depends on the SDK the way an app would: node_modules/@app-platform/sdk. */
async function consumerProject (t: Test): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'sdk-consumer-'))
  t.teardown(() => rm(dir, { recursive: true, force: true }))
  await mkdir(join(dir, 'node_modules/@app-platform'), { recursive: true })
  await symlink(SDK, join(dir, 'node_modules/@app-platform/sdk'), 'dir')
  await writeFile(join(dir, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }))
  return dir
}

t.test('sdk builds with tsc and runs on plain node', async (t) => {
  await run('npm', ['--prefix', SDK, 'run', 'build'], { cwd: ROOT, env: plainEnv() })
  for (const file of ['index.js', 'index.d.ts', 'browser.js', 'browser.d.ts']) t.ok(existsSync(join(DIST, file)), `dist/${file}`)

  const manifest = JSON.parse(await readFile(join(SDK, 'package.json'), 'utf8'))
  t.equal(manifest.name, '@app-platform/sdk')
  t.equal(manifest.type, 'module')
  t.same(manifest.files, ['dist', 'LICENSE', 'README.md'])
  for (const entry of ['.', './browser']) {
    t.ok(existsSync(join(SDK, manifest.exports[entry].default)), `exports["${entry}"] JS exists`)
    t.ok(existsSync(join(SDK, manifest.exports[entry].types)), `exports["${entry}"] types exist`)
  }

  t.test('dist/index.js imports with plain node (by path and by package name)', async (t) => {
    const consumer = await consumerProject(t)
    const script = `
      import { createHmac } from 'node:crypto'
      const byPath = await import(${JSON.stringify(join(DIST, 'index.js'))})
      const sdk = await import('@app-platform/sdk')
      const browser = await import('@app-platform/sdk/browser')
      const body = '{"event":"webhook.test","timestamp":"2025-01-01T00:00:00Z","webhookId":"wh","businessId":"biz","data":{}}'
      const ts = Math.floor(Date.now() / 1000)
      const signature = 'sha256=' + createHmac('sha256', 'whsec_x').update(ts + '.' + body).digest('hex')
      const event = sdk.verifyWebhook(body, { 'x-webhook-signature': signature, 'x-webhook-timestamp': String(ts) }, 'whsec_x')
      console.log(JSON.stringify({
        same: byPath.verifyWebhook === sdk.verifyWebhook,
        verify: typeof sdk.verifyWebhook, event: event.event,
        client: typeof sdk.createAppApiClient, oauth: typeof sdk.exchangeCode,
        browserParse: typeof browser.parseBlockHostMessage, browserVerify: typeof browser.verifyWebhook
      }))`
    const { stdout } = await run(process.execPath, ['--input-type=module', '-e', script], { cwd: consumer, env: plainEnv() })
    t.same(JSON.parse(stdout), {
      same: true, verify: 'function', event: 'webhook.test', client: 'function', oauth: 'function', browserParse: 'function', browserVerify: 'undefined'
    })
  })

  t.test('the declarations typecheck in a consumer project without .ts-extension settings', async (t) => {
    const consumer = await consumerProject(t)
    await writeFile(join(consumer, 'tsconfig.json'), JSON.stringify({
      compilerOptions: {
        target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', strict: true, noEmit: true,
        lib: ['ES2023', 'DOM'], types: ['node'], typeRoots: [join(ROOT, 'node_modules/@types')]
      },
      files: ['main.ts']
    }))
    await writeFile(join(consumer, 'main.ts'), [
      "import { verifyWebhook, createAppApiClient, paginate, type WebhookEvent, type Product } from '@app-platform/sdk'",
      "import { connectBlock, type BlockInitMessage } from '@app-platform/sdk/browser'",
      "const event: WebhookEvent = verifyWebhook('{}', {}, 'secret')",
      'const name: string = event.event',
      "const client = createAppApiClient({ baseUrl: 'http://localhost', accessToken: 'fbat_x' })",
      'async function all (): Promise<Product[]> { const out: Product[] = []; for await (const p of paginate(client.products.list)) out.push(p); return out }',
      'const onInit = (m: BlockInitMessage): void => { console.log(m.blockId, name) }',
      "async function changed (since: string): Promise<string | null> { const it = client.sync('orders', { updatedSince: since, status: 'PENDING' }); for await (const o of it) console.log(o.orderNumber); return it.lastUpdatedAt }",
      "async function exported (): Promise<number> { let n = 0; for await (const p of client.bulkExport('products', { pollIntervalMs: 500 })) n += p.stock; return n }",
      'export { all, onInit, connectBlock, changed, exported }',
      ''
    ].join('\n'))
    const tsc = join(ROOT, 'node_modules/typescript/bin/tsc')
    const result = await run(process.execPath, [tsc, '-p', consumer], { cwd: consumer, env: plainEnv() }).then(() => 'ok', (error: { stdout: string }) => error.stdout)
    t.equal(result, 'ok')
  })

  t.test('the browser entry pulls in no node built-ins', async (t) => {
    const seen = new Set<string>()
    const visit = async (file: string): Promise<void> => {
      if (seen.has(file)) return
      seen.add(file)
      const source = await readFile(join(DIST, file), 'utf8')
      for (const [, specifier] of source.matchAll(/(?:import|export)[^'"]*?from\s*["']([^"']+)["']/g)) {
        t.ok(specifier.startsWith('./'), `${file} imports only relative modules (found ${specifier})`)
        if (specifier.startsWith('./')) await visit(specifier.slice(2))
      }
      t.notMatch(source, /\bBuffer\b|\bprocess\./, `${file} uses no node globals`)
    }
    await visit('browser.js')
    t.ok(seen.has('iframe.js'))
  })
})

t.test('sdk sources import only node built-ins and each other', async (t) => {
  const files = (await readdir(join(SDK, 'src'))).filter((name) => name.endsWith('.ts'))
  t.ok(files.length >= 8)
  for (const file of files) {
    const source = await readFile(join(SDK, 'src', file), 'utf8')
    for (const [, specifier] of source.matchAll(/(?:import|export)[^'"]*?from\s*["']([^"']+)["']/g)) {
      const allowed = specifier.startsWith('node:') || (specifier.startsWith('./') && !specifier.includes('..'))
      t.ok(allowed, `${file}: ${specifier}`)
    }
  }
})
