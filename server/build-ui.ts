import { createHash } from 'node:crypto'
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { SPA_ROOT } from './plugins/spa.ts'

const ROOT = fileURLToPath(new URL('..', import.meta.url))
/** What the admin UI is built from: its sources, the SDK sources it imports, the build's config and the locked packages. */
const UI_SOURCES = ['admin-ui/index.html', 'admin-ui/src', 'sdk/src', 'vite.config.ts', 'package-lock.json']
/** Beside the build: the hash of the sources it was built from. */
const SOURCES_STAMP = '.sources'

/** A hash of every file of UI_SOURCES, names included: a change to any of them calls for a new build. */
export function sourcesHash (root = ROOT): string {
  const hash = createHash('sha256')
  for (const entry of UI_SOURCES) {
    const path = join(root, entry)
    const files = statSync(path).isDirectory() ? readdirSync(path, { recursive: true }).map((file) => join(entry, String(file))).sort() : [entry]
    for (const file of files) {
      if (statSync(join(root, file)).isFile()) hash.update(file).update(readFileSync(join(root, file)))
    }
  }
  return hash.digest('hex')
}

/** Whether the build in `spaRoot` was made from the sources of `hash`. */
export function isCurrent (hash: string, spaRoot = SPA_ROOT): boolean {
  const stamp = join(spaRoot, SOURCES_STAMP)
  return existsSync(join(spaRoot, 'index.html')) && existsSync(stamp) && readFileSync(stamp, 'utf8') === hash
}

/** Seconds between "still building" lines when the output is not a terminal (Vite draws its own progress on one). */
const PROGRESS_EVERY_MS = 5000

/**
 * `npm start` works from a fresh clone: build the admin UI when its build is missing or was made from other
 * sources (a pull, an edit: `npm start` and `npm test` never serve a stale UI), saying so as it goes.
 */
export async function ensureUiBuilt (): Promise<void> {
  const hash = sourcesHash()
  if (isCurrent(hash)) return
  const started = performance.now()
  console.log(existsSync(join(SPA_ROOT, 'index.html'))
    ? 'Rebuilding the admin UI: its sources changed since the last build…'
    : 'Building the admin UI (first start only, about 20 s)…')
  const terminal = process.stdout.isTTY === true
  const ticker = terminal ? null : setInterval(() => { console.log(`  still building the admin UI (${Math.round((performance.now() - started) / 1000)} s)…`) }, PROGRESS_EVERY_MS)
  try {
    const { build } = await import('vite')
    // on a terminal Vite shows the modules it transforms and the files it writes
    await build({ configFile: fileURLToPath(new URL('../vite.config.ts', import.meta.url)), logLevel: terminal ? 'info' : 'warn' })
  } finally {
    if (ticker !== null) clearInterval(ticker)
  }
  writeFileSync(join(SPA_ROOT, SOURCES_STAMP), hash)
  console.log(`Admin UI built in ${((performance.now() - started) / 1000).toFixed(1)} s.`)
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await ensureUiBuilt()
