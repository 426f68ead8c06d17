import { createHash } from 'node:crypto'
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { Worker } from 'node:worker_threads'
import type { Database } from './client.ts'
import { MIGRATIONS_FOLDER } from './migrations-folder.ts'
import { unpackTemplate } from './unpack-template.js'

/**
 * The embedded database's first start without initdb (#43 item 5). Creating a PGlite cluster runs
 * Postgres' bootstrap in WebAssembly, most of an empty `DATA_DIR`'s start; the migrations come next. So
 * the first start that migrates an empty cluster keeps it, migrated and still empty, as a tarball beside
 * the installed packages, and every later start on an empty `DATA_DIR` loads that instead. It is kept
 * once the plugins have booted, so pg-boss's schema and its queues (a partition each, DDL that took
 * seconds of every first start) are in it too. A template holds no data and no secret (those are files
 * of `DATA_DIR`), and it is named by what made it: the migrations, the PGlite build and pg-boss's
 * version. A fresh `npm ci` starts without one.
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

/** An installed package's version (its exports may hide package.json: read it above the resolved entry point, …/dist/index.cjs). */
function packageVersion (name: string): string {
  const require = createRequire(import.meta.url)
  const packageJson = join(dirname(dirname(require.resolve(name))), 'package.json')
  return (JSON.parse(readFileSync(packageJson, 'utf8')) as { version: string }).version
}

/**
 * Named by the migrations, PGlite's version (a cluster from another build may not start on this one) and
 * pg-boss's (the template is kept once the plugins have booted, with pg-boss's schema and queues).
 */
export function templateFile (dir = TEMPLATE_DIR): string {
  const name = migrationsHash().update(packageVersion('@electric-sql/pglite')).update(`pg-boss ${packageVersion('pg-boss')}`).digest('hex').slice(0, 12)
  return join(dir, `pglite-${name}.tar`)
}

/**
 * Starts an empty `dataDir` from the template, when an earlier start kept one: its tarball is unpacked
 * into `pgdata` by the operating system's file calls, which took a fraction of the CPU of handing it to
 * PGlite to unpack inside WebAssembly (`loadDataDir`). Unpacked beside and renamed, so an interrupted
 * start leaves no half cluster that `holdsDatabase` would take for a whole one. Returns whether it did.
 */
export function restoreTemplate (dataDir: string, dir = TEMPLATE_DIR): boolean {
  const file = templateFile(dir)
  if (!existsSync(file)) return false
  return unpackTemplate(file, dataDir)
}

/**
 * restoreTemplate on a worker thread: main.ts starts it before it loads the server's modules, so that the
 * cluster's files are created on another core meanwhile (most of the unpacking is the kernel's work per
 * file), and buildApp waits for it before it opens the database. Resolves to whether it restored; a
 * worker that cannot run resolves false, and buildApp unpacks on its own thread as before.
 */
export async function restoreTemplateAside (dataDir: string, dir = TEMPLATE_DIR): Promise<boolean> {
  const file = templateFile(dir)
  if (!existsSync(file)) return false
  return await new Promise<boolean>((resolve) => {
    try {
      // no TypeScript loader for a plain JavaScript file: the worker starts with none of this process's flags
      const worker = new Worker(new URL('./unpack-template.js', import.meta.url), { workerData: { unpackTemplate: { file, dataDir } }, execArgv: [] })
      worker.once('message', (restored: boolean) => { resolve(restored) })
      worker.once('error', () => { resolve(false) })
      worker.once('exit', () => { resolve(false) })
    } catch {
      resolve(false)
    }
  })
}

/** The migrated empty cluster as PGlite loads it (`loadDataDir`), when an earlier start kept one. */
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
    // the cluster's files as of a checkpoint: a start from them replays no WAL (without it, opening the
    // restored cluster took three times the CPU of reopening a stopped one)
    await database.executeSql('checkpoint')
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
