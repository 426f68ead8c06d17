/*
 * `npm start` without compiling TypeScript at every start (#43 item 5). tsx transformed the ≈ 500
 * modules of the server, its plugins, the SDK and the reference app on each start: seconds of CPU before
 * any work. The server is bundled once with esbuild (its own sources and the workspace packages; the
 * installed packages stay external and load from node_modules as before) into
 * node_modules/.cache/app-platform/server, stamped with a hash of the sources it was made from, and
 * bundled again when any of them changed (a pull, an edit), as the admin UI build is (server/build-ui.ts).
 *
 * Plain JavaScript, so that server/start.js can run it without a TypeScript loader; its types are in
 * build-server.d.ts.
 */
import { createHash } from 'node:crypto'
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { dirname, join, relative, sep } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'

const ROOT = fileURLToPath(new URL('..', import.meta.url))
/** What the bundle is made from: the server, the capability plugins, the workspace packages it bundles, this build and the locked packages. */
export const SERVER_SOURCES = ['server', 'plugins', 'sdk/src', 'examples/reference-app/src', 'tsconfig.json', 'package.json', 'package-lock.json']
/** Only code (and JSON a module may import) is bundled: the SQL migrations, sample images and storefront assets are read at run time from the sources. */
const CODE = /\.(ts|tsx|js|mjs|cjs|json)$/
/** The bundle's entry points: tracing first (it must wrap pg and undici before they load), then the server. */
export const ENTRIES = ['telemetry-start', 'main']
/** Beside the bundle: the hash of the sources it was made from. */
const SOURCES_STAMP = '.sources'

/** Where the bundle is kept: beside the installed packages, like the database template. */
export function bundleDir (root = ROOT) {
  return join(root, 'node_modules', '.cache', 'app-platform', 'server')
}

/** A hash of every code file of SERVER_SOURCES, names included: a change to any of them calls for a new bundle. */
export function serverSourcesHash (root = ROOT) {
  const hash = createHash('sha256')
  for (const entry of SERVER_SOURCES) {
    const path = join(root, entry)
    if (!existsSync(path)) continue
    const files = statSync(path).isDirectory() ? readdirSync(path, { recursive: true }).map((file) => join(entry, String(file))).sort() : [entry]
    for (const file of files) {
      if (CODE.test(file) && statSync(join(root, file)).isFile()) hash.update(file).update(readFileSync(join(root, file)))
    }
  }
  return hash.digest('hex')
}

/** Whether the bundle in `dir` was made from the sources of `hash`. */
export function isBundleCurrent (hash, dir = bundleDir()) {
  const stamp = join(dir, SOURCES_STAMP)
  return ENTRIES.every((entry) => existsSync(join(dir, `${entry}.mjs`))) && existsSync(stamp) && readFileSync(stamp, 'utf8') === hash
}

/**
 * The sources keep what they read beside themselves (the migrations, the sample images, the storefront's
 * browser entries, the admin UI build) as `new URL(…, import.meta.url)`: in the bundle each module's
 * `import.meta.url` is its source file's, as a path relative to the bundle, so a moved checkout still works.
 */
function sourceUrls (outdir) {
  return {
    name: 'source-import-meta-url',
    setup (build) {
      build.onLoad({ filter: /\.(ts|tsx|js|mjs)$/ }, (args) => {
        if (args.path.includes(`${sep}node_modules${sep}`)) return undefined
        const source = readFileSync(args.path, 'utf8')
        const loader = args.path.endsWith('.tsx') ? 'tsx' : args.path.endsWith('.ts') ? 'ts' : 'js'
        if (!source.includes('import.meta.url')) return { contents: source, loader }
        const fromBundle = relative(outdir, args.path).split(sep).join('/')
        return { contents: source.replaceAll('import.meta.url', `new URL(${JSON.stringify(fromBundle)}, import.meta.url).href`), loader }
      })
    }
  }
}

/**
 * Installed packages load from node_modules at run time (PGlite's WebAssembly, native modules, each
 * package's own files); the workspace's TypeScript packages are bundled.
 */
const installedPackagesExternal = {
  name: 'installed-packages-external',
  setup (build) {
    build.onResolve({ filter: /^[^./]/ }, (args) => {
      if (args.path.startsWith('@app-platform/')) return undefined
      return { path: args.path, external: true }
    })
  }
}

/** Bundles the server into `outdir` (written beside and renamed: a concurrent start reads a whole bundle or the old one) and stamps it with `hash`. */
export async function buildServerBundle (hash, { root = ROOT, outdir = bundleDir(root) } = {}) {
  const { build } = await import('esbuild')
  const partial = `${outdir}.${process.pid}`
  rmSync(partial, { recursive: true, force: true })
  try {
    await build({
      absWorkingDir: root,
      entryPoints: ENTRIES.map((entry) => ({ in: join(root, 'server', `${entry}.ts`), out: entry })),
      outdir: partial,
      outExtension: { '.js': '.mjs' },
      bundle: true,
      splitting: true,
      format: 'esm',
      platform: 'node',
      target: 'node20',
      conditions: ['app-platform-source'],
      // fastify names plugins (and their errors) after their functions
      keepNames: true,
      sourcemap: 'linked',
      sourcesContent: false,
      logLevel: 'silent',
      // the bundle's relative source paths are computed for where it ends up, not the partial folder
      plugins: [installedPackagesExternal, sourceUrls(outdir)]
    })
    writeFileSync(join(partial, SOURCES_STAMP), hash)
    mkdirSync(dirname(outdir), { recursive: true })
    rmSync(outdir, { recursive: true, force: true })
    try {
      renameSync(partial, outdir)
    } catch (error) {
      // another start bundled the same sources at the same moment: its bundle is as good
      if (!isBundleCurrent(hash, outdir)) throw error
    }
  } finally {
    rmSync(partial, { recursive: true, force: true })
  }
}

/**
 * The bundle's entry points as URLs, bundled first when missing or made from other sources. A bundle that
 * cannot be made or kept (esbuild missing, a read-only install) returns null with the reason: the caller
 * runs the sources instead.
 */
export async function ensureServerBuilt (root = ROOT) {
  const outdir = bundleDir(root)
  const entries = Object.fromEntries(ENTRIES.map((entry) => [entry, pathToFileURL(join(outdir, `${entry}.mjs`)).href]))
  try {
    const hash = serverSourcesHash(root)
    if (!isBundleCurrent(hash, outdir)) await buildServerBundle(hash, { root, outdir })
    return { entries, problem: null }
  } catch (error) {
    const reason = (error instanceof Error ? error.message : String(error)).replace(/\s*\n\s*/g, ' ')
    return { entries: null, problem: `the server could not be bundled (${reason}); running its TypeScript sources instead` }
  }
}
