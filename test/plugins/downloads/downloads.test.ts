import t, { type Test } from 'tap'
import { createHash } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { list } from 'tar'
import { Readable } from 'node:stream'
import { build } from '../../helper.ts'

/** A cache of this file's own: the tarballs are built from the workspace here, not taken from another run's. */
function cacheDir (t: Test): string {
  const dir = mkdtempSync(join(tmpdir(), 'downloads-cache-'))
  t.teardown(() => rmSync(dir, { recursive: true, force: true }))
  return dir
}

/** The entries of a gzipped tarball, and the text of the ones asked for. */
async function entries (bytes: Buffer, read: string[] = []): Promise<{ paths: string[], text: Record<string, string> }> {
  const paths: string[] = []
  const text: Record<string, string> = {}
  await new Promise<void>((resolve, reject) => {
    const parser = list({
      onReadEntry: (entry) => {
        paths.push(entry.path)
        if (!read.includes(entry.path)) { entry.resume(); return }
        let content = ''
        entry.on('data', (chunk: Buffer) => { content += String(chunk) })
        entry.on('end', () => { text[entry.path] = content })
      }
    })
    parser.on('end', resolve)
    parser.on('error', reject)
    Readable.from([bytes]).pipe(parser)
  })
  return { paths, text }
}

t.test('GET /downloads and the tarballs', async (t) => {
  const app = await build(t, { downloads: { cacheDir: cacheDir(t) } })
  // concurrent requests share one build of each package
  const [listed, again] = await Promise.all([app.inject({ url: '/downloads' }), app.inject({ url: '/downloads' })])
  t.equal(listed.statusCode, 200, listed.body)
  t.same(again.json(), listed.json())
  const { sdk, cli } = listed.json()
  t.match(sdk, { name: '@app-platform/sdk', version: /^\d+\.\d+\.\d+/, url: /^http:\/\/localhost(:\d+)?\/downloads\/app-platform-sdk-\d+\.\d+\.\d+\S*\.tgz$/, integrity: /^sha512-/ })
  t.match(cli, { name: '@app-platform/cli', url: /\/downloads\/app-platform-cli-\S+\.tgz$/, integrity: /^sha512-/ })

  t.test('the unversioned names are 302s to the current version', async (t) => {
    for (const [key, current] of [['sdk', sdk], ['cli', cli]] as const) {
      const alias = await app.inject({ url: `/downloads/app-platform-${key}.tgz` })
      t.equal(alias.statusCode, 302)
      t.equal(alias.headers.location, current.url)
    }
  })

  t.test('the SDK tarball: ESM, CJS, types, LICENSE, only registry dependencies, the integrity given', async (t) => {
    const got = await app.inject({ url: new URL(sdk.url).pathname })
    t.equal(got.statusCode, 200)
    t.equal(got.headers['content-type'], 'application/gzip')
    t.equal(`sha512-${createHash('sha512').update(got.rawPayload).digest('base64')}`, sdk.integrity)
    const { paths, text } = await entries(got.rawPayload, ['package/package.json'])
    for (const file of ['package.json', 'LICENSE', 'README.md', 'dist/index.js', 'dist/index.cjs', 'dist/index.d.ts', 'dist/browser.js', 'dist/browser.cjs', 'dist/browser.d.ts']) {
      t.ok(paths.includes(`package/${file}`), file)
    }
    t.notOk(paths.some((path) => path.startsWith('package/src/')), 'no sources')
    const manifest = JSON.parse(text['package/package.json'] ?? '{}')
    t.match(manifest.exports['.'], { types: './dist/index.d.ts', import: './dist/index.js', require: './dist/index.cjs' })
    t.notOk(JSON.stringify(manifest.exports).includes('app-platform-source'), 'no workspace condition')
    for (const version of Object.values(manifest.dependencies as Record<string, string>)) t.match(version, /^[\^~]?\d/, 'a registry version, never file: or a workspace')
  })

  t.test('the CLI tarball: one bundled file as its bin, no dependencies', async (t) => {
    const got = await app.inject({ url: new URL(cli.url).pathname })
    t.equal(got.statusCode, 200)
    const { paths, text } = await entries(got.rawPayload, ['package/package.json'])
    t.ok(paths.includes('package/dist/app-platform.js'))
    const manifest = JSON.parse(text['package/package.json'] ?? '{}')
    t.same(manifest.bin, { 'app-platform': './dist/app-platform.js' })
    t.equal(manifest.dependencies, undefined)
  })

  t.test('another version\'s file is a 404; a name outside the pattern a 400', async (t) => {
    const old = await app.inject({ url: '/downloads/app-platform-sdk-0.0.1.tgz' })
    t.equal(old.statusCode, 404)
    t.equal(old.json().code, 'download_not_found')
    t.equal((await app.inject({ url: '/downloads/other.tgz' })).statusCode, 400)
  })
})

t.test('a tarball that cannot be built: /downloads is a 503 with a code, nothing else stops', async (t) => {
  const empty = mkdtempSync(join(tmpdir(), 'downloads-broken-'))
  t.teardown(() => rmSync(empty, { recursive: true, force: true }))
  const app = await build(t, { downloads: { workspace: empty, cacheDir: cacheDir(t) } })
  const listed = await app.inject({ url: '/downloads' })
  t.equal(listed.statusCode, 503)
  t.match(listed.json(), { code: 'downloads_unavailable', package: 'sdk', message: /The SDK tarball could not be built/ })
  t.equal((await app.inject({ url: '/downloads/app-platform-cli.tgz' })).statusCode, 503)
  t.equal((await app.inject({ url: '/health' })).statusCode, 200, 'the platform runs on')
  t.equal((await app.inject({ url: '/marketplace/apps' })).statusCode, 200)
})
