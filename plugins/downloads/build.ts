import { execFile } from 'node:child_process'
import { createHash } from 'node:crypto'
import { copyFile, mkdir, mkdtemp, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { build } from 'esbuild'
import { create as createTar } from 'tar'

const run = promisify(execFile)

/** The two packages the platform serves (DESIGN §22), by the short name in their file names. */
export const PACKAGES = ['sdk', 'cli'] as const
export type PackageKey = typeof PACKAGES[number]

/** A built tarball: where it is and what `GET /downloads` says of it. */
export interface Tarball { key: PackageKey, name: string, version: string, file: string, fileName: string, integrity: string }

/** What the tarballs are made of: a change to any of these files makes new ones. */
const SOURCES: Record<PackageKey, string[]> = {
  sdk: ['sdk/src', 'sdk/package.json', 'sdk/tsconfig.json', 'sdk/LICENSE', 'sdk/README.md'],
  cli: ['cli/src', 'cli/package.json', 'cli/build.mjs', 'sdk/src', 'sdk/LICENSE']
}
/** Bumped when the way a tarball is made changes, so cached ones of the old recipe are not served. */
const RECIPE = 2

export const fileNameOf = (key: PackageKey, version: string): string => `app-platform-${key}-${version}.tgz`

async function filesUnder (root: string, path: string): Promise<string[]> {
  const full = join(root, path)
  const entries = await readdir(full, { withFileTypes: true }).catch(() => null)
  if (entries === null) return [path]
  const nested = await Promise.all(entries.filter((entry) => entry.name !== 'node_modules' && entry.name !== 'dist')
    .map(async (entry) => entry.isDirectory() ? await filesUnder(root, join(path, entry.name)) : [join(path, entry.name)]))
  return nested.flat()
}

/** A hash of the package's sources in `workspace`: the cache key of its tarball. A missing source is an error (the build would fail). */
export async function sourceHash (workspace: string, key: PackageKey): Promise<string> {
  const hash = createHash('sha256').update(`recipe ${RECIPE}\n`)
  const files = (await Promise.all(SOURCES[key].map(async (path) => await filesUnder(workspace, path)))).flat().sort()
  for (const file of files) hash.update(`${file}\n`).update(await readFile(join(workspace, file)))
  return hash.digest('hex').slice(0, 16)
}

/** npm's `integrity` of a file: sha512, base64. */
export function integrityOf (bytes: Buffer): string {
  return `sha512-${createHash('sha512').update(bytes).digest('base64')}`
}

type SourcePackage = Record<string, unknown> & { version: string }

/** A workspace package's package.json (`sdk`, `cli`). */
async function sourcePackage (workspace: string, folder: PackageKey): Promise<SourcePackage> {
  return JSON.parse(await readFile(join(workspace, folder, 'package.json'), 'utf8')) as SourcePackage
}

/** A published package.json: what both packages take from their source's, then the package's own fields. */
function publishedManifest (source: SourcePackage, own: Record<string, unknown>): Record<string, unknown> {
  return {
    name: source.name,
    version: source.version,
    description: source.description,
    license: source.license,
    engines: source.engines,
    type: 'module',
    ...own
  }
}

/** The SDK as published: ESM and CJS bundles of each entry (its registry dependencies left as imports), tsc's declarations. */
async function stageSdk (workspace: string, dir: string): Promise<Record<string, unknown>> {
  const sdk = join(workspace, 'sdk')
  const source = await sourcePackage(workspace, 'sdk')
  const dist = join(dir, 'dist')
  const entryPoints = { index: join(sdk, 'src/index.ts'), browser: join(sdk, 'src/browser.ts') }
  const common = { entryPoints, outdir: dist, bundle: true, platform: 'node', target: 'node20', packages: 'external', logLevel: 'silent' } as const
  await build({ ...common, format: 'esm' })
  await build({ ...common, format: 'cjs', outExtension: { '.js': '.cjs' } })
  const tsc = join(workspace, 'node_modules/typescript/bin/tsc')
  await run(process.execPath, [tsc, '-p', join(sdk, 'tsconfig.json'), '--emitDeclarationOnly', '--outDir', dist], { cwd: workspace })
  // tsc keeps the sources' `.ts` specifiers in declarations: a consumer resolves the `.js` beside each `.d.ts`
  for (const file of (await filesUnder(dist, '.')).filter((name) => name.endsWith('.d.ts'))) {
    const text = await readFile(join(dist, file), 'utf8')
    await writeFile(join(dist, file), text.replace(/(['"])(\.{1,2}\/[^'"]+)\.ts\1/g, '$1$2.js$1'))
  }
  for (const file of ['LICENSE', 'README.md']) await copyFile(join(sdk, file), join(dir, file))
  const entry = (name: string) => ({ types: `./dist/${name}.d.ts`, import: `./dist/${name}.js`, require: `./dist/${name}.cjs` })
  return publishedManifest(source, {
    main: './dist/index.cjs',
    module: './dist/index.js',
    types: './dist/index.d.ts',
    exports: { '.': entry('index'), './browser': entry('browser'), './package.json': './package.json' },
    typesVersions: source.typesVersions,
    files: ['dist', 'LICENSE', 'README.md'],
    sideEffects: false,
    dependencies: source.dependencies
  })
}

/** The CLI as published: cli/build.mjs's one bundled file (the SDK and commander inside) and the app template, no dependencies. */
async function stageCli (workspace: string, dir: string): Promise<Record<string, unknown>> {
  const source = await sourcePackage(workspace, 'cli')
  await run(process.execPath, [join(workspace, 'cli/build.mjs'), join(dir, 'dist')], { cwd: workspace })
  await copyFile(join(workspace, 'sdk/LICENSE'), join(dir, 'LICENSE'))
  return publishedManifest(source, { bin: { 'app-platform': './dist/app-platform.js' }, files: ['dist', 'LICENSE'] })
}

/**
 * Builds one package's tarball from `workspace` into `cacheDir` (npm pack's layout: everything under
 * `package/`), unless a tarball of the same sources is there already. Staged in a folder of its own
 * and renamed into place, so a reader never sees half a file and two processes never clash.
 */
export async function buildTarball (workspace: string, cacheDir: string, key: PackageKey): Promise<Tarball> {
  const hash = await sourceHash(workspace, key)
  const done = join(cacheDir, `${key}-${hash}.json`)
  const cached = await readFile(done, 'utf8').then((text) => JSON.parse(text) as Tarball, () => null)
  if (cached !== null) return cached
  await mkdir(cacheDir, { recursive: true })
  const staging = await mkdtemp(join(cacheDir, `.${key}-`))
  try {
    const dir = join(staging, 'package')
    await mkdir(dir)
    const manifest = key === 'sdk' ? await stageSdk(workspace, dir) : await stageCli(workspace, dir)
    await writeFile(join(dir, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`)
    const version = String(manifest.version)
    const fileName = fileNameOf(key, version)
    const packed = join(staging, fileName)
    await createTar({ gzip: true, file: packed, cwd: staging, portable: true, mtime: new Date('1985-10-26T08:15:00Z') }, ['package'])
    const bytes = await readFile(packed)
    const file = join(cacheDir, `${key}-${hash}.tgz`)
    await rename(packed, file)
    const tarball: Tarball = { key, name: String(manifest.name), version, file, fileName, integrity: integrityOf(bytes) }
    await writeFile(`${done}.tmp`, JSON.stringify(tarball))
    await rename(`${done}.tmp`, done)
    return tarball
  } finally {
    await rm(staging, { recursive: true, force: true })
  }
}
