import { chmodSync, closeSync, existsSync, mkdirSync, mkdtempSync, openSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import { tmpdir } from 'node:os'
import { pathToFileURL } from 'node:url'
import * as tar from 'tar'
import { loadConfig, ConfigError } from './config.ts'
import { openDatabase } from './db/client.ts'
import { dataDirHolder, DataDirInUseError, LOCK_FILE } from './db/data-dir-lock.ts'

/**
 * `npm run backup -- <file>` and `npm run restore -- <file> [--force]` for the embedded database.
 * A backup is one .tar.gz: the PGlite data directory as PGlite dumps it (`pgdata.tar.gz`), every other
 * file of DATA_DIR (the generated JWT secret and encryption key, without which encrypted columns and
 * sessions are unreadable; the demo app's files) under `files/`, and `backup.json` describing it.
 * Both need the server stopped: PGlite is one process's database. PostgreSQL: pg_dump (docs/operations.md, "Backups").
 * A backup holds those secrets and every row: it is written for its owner only (0600), and a restore
 * makes DATA_DIR and its folders 0700 and its files 0600, whatever the umask.
 */

export const FORMAT = 'app-platform-backup'
export const FORMAT_VERSION = 1
const PGDATA = 'pgdata'
/** Owner only: the backup file and restored files hold the JWT secret, the encryption key and app secrets. */
const FILE_MODE = 0o600
const DIR_MODE = 0o700

export class BackupError extends Error {
  name = 'BackupError'
}

interface Manifest { format: string, version: number, createdAt: string, migrations: number, files: string[] }

function otherFiles (dataDir: string): string[] {
  return readdirSync(dataDir, { recursive: true }).map(String)
    .filter((path) => path !== LOCK_FILE && path !== PGDATA && !path.startsWith(`${PGDATA}/`) && statSync(join(dataDir, path)).isFile())
    .sort()
}

export async function backup (dataDir: string, file: string): Promise<Manifest> {
  if (!existsSync(join(dataDir, PGDATA))) throw new BackupError(`no embedded database in ${dataDir} (nothing to back up)`)
  const database = await openDatabase({ databaseUrl: null, dataDir })
  const staging = mkdtempSync(join(tmpdir(), 'platform-backup-'))
  try {
    const pending = await database.pendingMigrations()
    const { rows } = await database.executeSql('select count(*)::int as n from drizzle.__drizzle_migrations')
    const dump = await (database.dumpDataDir as () => Promise<Blob>)()
    await database.close()
    if (pending < 0) throw new BackupError('the database has migrations this code does not know: back it up with the code that made it')
    writeFileSync(join(staging, 'pgdata.tar.gz'), Buffer.from(await dump.arrayBuffer()))
    const files = otherFiles(dataDir)
    for (const path of files) {
      mkdirSync(dirname(join(staging, 'files', path)), { recursive: true })
      writeFileSync(join(staging, 'files', path), readFileSync(join(dataDir, path)))
    }
    const manifest: Manifest = { format: FORMAT, version: FORMAT_VERSION, createdAt: new Date().toISOString(), migrations: rows[0].n as number, files }
    writeFileSync(join(staging, 'backup.json'), `${JSON.stringify(manifest, null, 2)}\n`)
    mkdirSync(dirname(resolve(file)), { recursive: true })
    // created 0600 before a byte is written, so the secrets are never readable by others, even for a moment
    closeSync(openSync(file, 'w', FILE_MODE))
    chmodSync(file, FILE_MODE)
    await tar.create({ gzip: true, file, cwd: staging, portable: true }, readdirSync(staging))
    return manifest
  } finally {
    await database.close()
    rmSync(staging, { recursive: true, force: true })
  }
}

/** Every folder under `dir` (itself included) 0700 and every file 0600: the database as well as the secrets. */
function ownerOnly (dir: string): void {
  chmodSync(dir, DIR_MODE)
  for (const path of readdirSync(dir, { recursive: true }).map(String)) {
    const target = join(dir, path)
    chmodSync(target, statSync(target).isDirectory() ? DIR_MODE : FILE_MODE)
  }
}

function readManifest (folder: string): Manifest {
  let manifest: Manifest
  try {
    manifest = JSON.parse(readFileSync(join(folder, 'backup.json'), 'utf8')) as Manifest
  } catch {
    throw new BackupError('not a backup of this platform (no backup.json)')
  }
  if (manifest.format !== FORMAT) throw new BackupError('not a backup of this platform')
  if (manifest.version !== FORMAT_VERSION) throw new BackupError(`backup format ${String(manifest.version)} is not supported (this code reads ${FORMAT_VERSION})`)
  return manifest
}

/**
 * Restores `file` into `dataDir`. A DATA_DIR that already holds a database is kept aside as
 * `<DATA_DIR>.before-restore-<time>` with `force`, and refused without it; a running server's is always refused.
 */
export async function restore (dataDir: string, file: string, options: { force?: boolean } = {}): Promise<{ manifest: Manifest, keptAside: string | null }> {
  const holder = dataDirHolder(dataDir)
  if (holder !== null) throw new DataDirInUseError(dataDir, holder)
  if (!existsSync(file)) throw new BackupError(`no such file: ${file}`)
  const staging = mkdtempSync(join(tmpdir(), 'platform-restore-'))
  try {
    try {
      await tar.extract({ file, cwd: staging, strict: true })
    } catch {
      throw new BackupError(`${file} is not a readable backup archive`)
    }
    const manifest = readManifest(staging)
    let keptAside: string | null = null
    if (existsSync(dataDir) && readdirSync(dataDir).length > 0) {
      if (options.force !== true) throw new BackupError(`${dataDir} is not empty: restore into an empty DATA_DIR, or pass --force to keep the current one aside`)
      keptAside = `${dataDir.replace(/\/+$/, '')}.before-restore-${new Date().toISOString().replace(/[:.]/g, '-')}`
      renameSync(dataDir, keptAside)
    }
    mkdirSync(dataDir, { recursive: true, mode: DIR_MODE })
    for (const path of manifest.files) {
      const target = resolve(dataDir, path)
      if (relative(dataDir, target).startsWith('..')) throw new BackupError(`the backup names a file outside DATA_DIR: ${path}`)
      mkdirSync(dirname(target), { recursive: true, mode: DIR_MODE })
      writeFileSync(target, readFileSync(join(staging, 'files', path)), { mode: FILE_MODE })
    }
    const dump = new Blob([readFileSync(join(staging, 'pgdata.tar.gz'))])
    const database = await openDatabase({ databaseUrl: null, dataDir, loadDataDir: dump })
    try {
      const { rows } = await database.executeSql('select count(*)::int as n from drizzle.__drizzle_migrations')
      if (rows[0].n !== manifest.migrations) throw new BackupError(`the restored database has ${String(rows[0].n)} migrations, the backup said ${manifest.migrations}`)
    } finally {
      await database.close()
    }
    ownerOnly(dataDir)
    return { manifest, keptAside }
  } finally {
    rmSync(staging, { recursive: true, force: true })
  }
}

async function main (argv: string[]): Promise<number> {
  const [command, file, ...flags] = argv
  const usage = 'usage: npm run backup -- <file>   |   npm run restore -- <file> [--force]'
  if ((command !== 'backup' && command !== 'restore') || file === undefined || flags.some((flag) => flag !== '--force')) {
    console.error(usage)
    return 2
  }
  // a restore into a DATA_DIR that does not exist yet must not find it made, with fresh secrets, by loading the config
  const config = loadConfig(process.env, { persistSecrets: false })
  if (config.databaseUrl !== null || config.dataDir === null) {
    console.error('DATABASE_URL is set: back up a PostgreSQL server with pg_dump and pg_restore (docs/operations.md, "Backups")')
    return 2
  }
  if (command === 'backup') {
    const manifest = await backup(config.dataDir, file)
    console.log(`backed up ${config.dataDir} to ${file} (${manifest.migrations} migrations, ${manifest.files.length} other files)`)
  } else {
    const { manifest, keptAside } = await restore(config.dataDir, file, { force: flags.includes('--force') })
    console.log(`restored ${file} (made ${manifest.createdAt}) into ${config.dataDir}${keptAside === null ? '' : `; the previous DATA_DIR is at ${keptAside}`}`)
  }
  return 0
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  try {
    process.exitCode = await main(process.argv.slice(2))
  } catch (error) {
    if (!(error instanceof BackupError || error instanceof DataDirInUseError || error instanceof ConfigError)) throw error
    console.error(error.message)
    process.exitCode = 1
  }
}
