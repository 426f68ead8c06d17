import { randomBytes } from 'node:crypto'
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import pg from 'pg'
import type { Test } from 'tap'
import { loadConfig, type Config } from '../server/config.ts'
import { buildApp } from '../server/app.ts'
import { openDatabase, type Database } from '../server/db/client.ts'
import { migrationsHash } from '../server/db/template.ts'
import { until } from './wait.ts'

/** Set to run the suite on a PostgreSQL server; each test file gets a database of its own. */
export const SERVER_URL = process.env.DATABASE_URL ?? null

/** Templates live beside the installed packages, so a fresh `npm ci` (as CI does) makes them anew. */
const CACHE_DIR = fileURLToPath(new URL('../node_modules/.cache/app-platform-tests', import.meta.url))
/** Where a failing test leaves its embedded database. */
export const KEPT_DIR = join(tmpdir(), 'app-platform-kept-databases')

export function testConfig (env: Record<string, string> = {}, databaseUrl: string | null = null): Config {
  return loadConfig({
    LOG_LEVEL: 'silent',
    DEMO_SEED: 'false',
    // every test signs up many accounts from 127.0.0.1; the throttle's own tests set it low
    AUTH_THROTTLE_PER_ADDRESS_PER_MINUTE: '100000',
    // the bridge check would start Chromium in every checks run; test/plugins/app-checks/reference-app.test.ts names it
    CHECKS_BROWSER_PATH: 'off',
    // tests read what they just wrote, with nothing else in flight: cursor mode needs no settle window (its own test sets one)
    SYNC_SETTLE_SECONDS: '0',
    ...(databaseUrl !== null ? { DATABASE_URL: databaseUrl } : {}),
    ...env
  }, { inMemory: true })
}

/**
 * What a template depends on: the migrations and the job queue's schema version. A change to
 * either names a new template; an old one is merely unused.
 */
function templateKey (): string {
  const require = createRequire(import.meta.url)
  return migrationsHash().update((require('pg-boss/package.json') as { version: string }).version).digest('hex').slice(0, 12)
}

/**
 * Boots the whole app once on `database` and closes it: migrations, pg-boss's schema and every
 * queue the capabilities create are then in place, so a copy starts like a restarted server.
 */
async function prepare (database: Database, databaseUrl: string | null): Promise<void> {
  await database.migrate()
  const app = await buildApp({ config: testConfig({}, databaseUrl), database })
  await app.ready()
  await app.close()
}

/** Runs `make` once across processes: the first takes a lock file, the others wait for `done()`. */
async function once (lock: string, done: () => Promise<boolean>, make: () => Promise<void>): Promise<void> {
  const deadline = Date.now() + 120_000
  while (!await done()) {
    let fd: number
    try {
      fd = openSync(lock, 'wx')
    } catch {
      // someone else is making it (or died making it: the lock then goes stale and is broken)
      // (the holder may have removed it since our open failed: then there is nothing to break)
      const held = statSync(lock, { throwIfNoEntry: false })
      if (held !== undefined && Date.now() - held.mtimeMs > 60_000) rmSync(lock, { force: true })
      if (Date.now() > deadline) throw new Error(`test database template: gave up waiting for ${lock}`)
      // until the holder lets go (or a second passes, to look at its lock again)
      await until(async () => existsSync(lock), (held) => !held, 1000)
      continue
    }
    try {
      if (!await done()) await make()
    } finally {
      closeSync(fd)
      rmSync(lock, { force: true })
    }
  }
}

let pgliteTemplate: Promise<Blob> | undefined

/** The migrated, booted embedded database as a data-directory tarball, made once per install. */
export function pgliteTemplateDump (): Promise<Blob> {
  pgliteTemplate ??= (async () => {
    mkdirSync(CACHE_DIR, { recursive: true })
    const file = join(CACHE_DIR, `pglite-${templateKey()}.tar`)
    await once(`${file}.lock`, async () => existsSync(file), async () => {
      const database = await openDatabase({ databaseUrl: null, dataDir: null })
      try {
        await prepare(database, null)
        const dump = await database.dumpDataDir!()
        const partial = `${file}.${process.pid}`
        writeFileSync(partial, Buffer.from(await dump.arrayBuffer()))
        renameSync(partial, file)
      } finally {
        await database.close()
      }
    })
    return new Blob([readFileSync(file)])
  })()
  return pgliteTemplate
}

async function withServer<T> (use: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: SERVER_URL! })
  await client.connect()
  try {
    return await use(client)
  } finally {
    await client.end()
  }
}

function databaseUrlFor (name: string): string {
  const url = new URL(SERVER_URL!)
  url.pathname = `/${name}`
  return url.toString()
}

/** Any constant: serialises template creation across test processes on one server. */
const TEMPLATE_LOCK_KEY = 72_410_002
let serverTemplate: Promise<string> | undefined

/** The name of the migrated, booted template database on the PostgreSQL server, made once. */
export function postgresTemplate (): Promise<string> {
  serverTemplate ??= withServer(async (admin) => {
    const name = `platform_tpl_${templateKey()}`
    const exists = async () => (await admin.query('select 1 from pg_database where datname = $1', [name])).rowCount === 1
    if (await exists()) return name
    await admin.query('select pg_advisory_lock($1)', [TEMPLATE_LOCK_KEY])
    try {
      if (await exists()) return name
      const building = `${name}_building`
      await admin.query(`drop database if exists "${building}" with (force)`)
      await admin.query(`create database "${building}"`)
      const url = databaseUrlFor(building)
      const database = await openDatabase({ databaseUrl: url, dataDir: null })
      try {
        await prepare(database, url)
      } finally {
        await database.close()
      }
      // renamed only once complete, so a half-made template is never copied
      await admin.query(`alter database "${building}" rename to "${name}"`)
      return name
    } finally {
      await admin.query('select pg_advisory_unlock($1)', [TEMPLATE_LOCK_KEY])
    }
  })
  return serverTemplate
}

/**
 * A fresh PostgreSQL database for this test, copied from the template (`empty`: not migrated, for
 * tests of migrating); null on PGlite runs. Dropped on teardown when the test passed, kept (and
 * named on stderr) when it failed.
 */
export async function testDatabaseUrl (t: Test, options: { empty?: boolean } = {}): Promise<string | null> {
  if (SERVER_URL === null) return null
  const template = options.empty === true ? null : await postgresTemplate()
  const name = `t_${process.pid}_${randomBytes(4).toString('hex')}`
  await withServer(async (admin) => { await admin.query(`create database "${name}"${template === null ? '' : ` template "${template}"`}`) })
  const url = databaseUrlFor(name)
  t.teardown(async () => {
    if (!t.passing()) {
      process.stderr.write(`# ${t.fullname}: failed; its database is kept for inspection: psql ${url}\n`)
      return
    }
    await withServer(async (admin) => { await admin.query(`drop database if exists "${name}" with (force)`) })
  })
  return url
}

/** An embedded database copied from the template; a failing test leaves it as a tarball and names it. */
export async function testPglite (t: Test): Promise<Database> {
  const database = await openDatabase({ databaseUrl: null, dataDir: null, loadDataDir: await pgliteTemplateDump() })
  t.teardown(async () => {
    if (!t.passing() && database.dumpDataDir !== undefined) {
      mkdirSync(KEPT_DIR, { recursive: true })
      const file = join(KEPT_DIR, `${t.fullname.replace(/[^\w.-]+/g, '_').slice(0, 120)}-${process.pid}.tar`)
      writeFileSync(file, Buffer.from(await (await database.dumpDataDir()).arrayBuffer()))
      process.stderr.write(`# ${t.fullname}: failed; its database is kept for inspection: ${file}` +
        ' (open it with `PGlite.create({ loadDataDir: new Blob([readFileSync(file)]) })`)\n')
    }
    await database.close()
  })
  return database
}

/** A migrated database of this test's own, without an app: PGlite, or a PostgreSQL database when DATABASE_URL is set. */
export async function testDatabase (t: Test): Promise<Database> {
  const url = await testDatabaseUrl(t)
  if (url === null) return await testPglite(t)
  const database = await openDatabase({ databaseUrl: url, dataDir: null })
  t.teardown(() => database.close())
  return database
}
