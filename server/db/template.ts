import { createHash } from 'node:crypto'
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { MIGRATIONS_FOLDER, type Database } from './client.ts'

/**
 * The embedded database's first start without initdb (#43 item 5). Creating a PGlite cluster runs
 * Postgres' bootstrap in WebAssembly, most of an empty `DATA_DIR`'s start; the migrations come next. So
 * the first start that migrates an empty cluster keeps it, migrated and still empty, as a tarball beside
 * the installed packages, and every later start on an empty `DATA_DIR` loads that instead. A template
 * holds no data and no secret (those are files of `DATA_DIR`), and it is named by what made it: the
 * migrations and the PGlite build. A fresh `npm ci` starts without one.
 */
export const TEMPLATE_DIR = fileURLToPath(new URL('../../node_modules/.cache/app-platform', import.meta.url))

/** Whether a data folder already holds an embedded database (PGlite keeps Postgres' own marker). */
export function holdsDatabase (dataDir: string): boolean {
  return existsSync(join(dataDir, 'pgdata', 'PG_VERSION'))
}

/** A hash of the migration files, their names included: a change to any of them names a new template. */
export function migrationsHash (): ReturnType<typeof createHash> {
  const hash = createHash('sha256')
  for (const file of readdirSync(MIGRATIONS_FOLDER, { recursive: true }).map(String).sort()) {
    const path = join(MIGRATIONS_FOLDER, file)
    if (statSync(path).isFile()) hash.update(file).update(readFileSync(path))
  }
  return hash
}

/** PGlite's version: a cluster from another build may not start on this one. */
function pgliteVersion (): string {
  const require = createRequire(import.meta.url)
  // its exports hide package.json: read it beside the resolved entry point (…/pglite/dist/index.cjs)
  const packageJson = join(dirname(dirname(require.resolve('@electric-sql/pglite'))), 'package.json')
  return (JSON.parse(readFileSync(packageJson, 'utf8')) as { version: string }).version
}

export function templateFile (dir = TEMPLATE_DIR): string {
  return join(dir, `pglite-${migrationsHash().update(pgliteVersion()).digest('hex').slice(0, 12)}.tar`)
}

/** The migrated empty cluster to start an empty `DATA_DIR` from, when an earlier start kept one. */
export function readTemplate (dir = TEMPLATE_DIR): Blob | undefined {
  const file = templateFile(dir)
  if (!existsSync(file)) return undefined
  return new Blob([readFileSync(file)])
}

/**
 * Keeps a just-migrated, still empty embedded database as the template. Written beside and renamed,
 * so a concurrent start reads a whole template or none. A folder that cannot be written (a read-only
 * install) only means later first starts run initdb as this one did: the problem is returned, not thrown.
 */
export async function keepTemplate (database: Database, dir = TEMPLATE_DIR): Promise<string | null> {
  if (database.dumpDataDir === undefined) return null
  const file = templateFile(dir)
  const partial = `${file}.${process.pid}`
  try {
    const dump = await database.dumpDataDir()
    mkdirSync(dir, { recursive: true })
    writeFileSync(partial, Buffer.from(await dump.arrayBuffer()))
    renameSync(partial, file)
    return null
  } catch (error) {
    // what was written of it, if anything was (under a folder that is a file there is nothing to remove)
    if (existsSync(partial)) rmSync(partial, { force: true })
    return `the embedded database's template could not be kept in ${dir}: ${(error as Error).message}`
  }
}
