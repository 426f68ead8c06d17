import { mkdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { PGlite } from '@electric-sql/pglite'
import pg from 'pg'
import { sql } from 'drizzle-orm'
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite'
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres'
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator'
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator'
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core'
import * as schema from './schema/index.ts'
import { createPgListener, type ListenEvents } from './listen.ts'
import { claimDataDir } from './data-dir-lock.ts'
import { keepsSessions, type NamedQuery } from './sessions.ts'
import { MIGRATIONS_FOLDER } from './migrations-folder.ts'
import { trackCommits } from './after-commit.ts'
import { DEFAULT_TIME_PARSERS, parseTimesAsText, TEXT_TYPES } from './pglite-parsers.ts'

export { MIGRATIONS_FOLDER }
/** Any constant works; every process that migrates must use the same one. */
const MIGRATION_LOCK_KEY = 72_410_001
/** Without a setting (scripts, tests that open a database directly): the configuration's default. */
const DEFAULT_ACQUIRE_TIMEOUT_MS = 10_000

export type Db = PgDatabase<PgQueryResultHKT, typeof schema>
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0]
/** What repository functions accept: the database, or a transaction to join. */
export type Executor = Db | Tx

export interface SqlResult { rows: any[], rowCount?: number | null }

/** The narrow seam pg-boss and raw queries use (pg-boss's own `db.executeSql` interface). */
export interface SqlExecutor { executeSql: (text: string, values?: unknown[]) => Promise<SqlResult> }

export interface Database extends SqlExecutor {
  kind: 'pglite' | 'postgres'
  db: Db
  migrate: () => Promise<void>
  /** Number of migration files that are not applied yet (0 when ready). */
  pendingMigrations: () => Promise<number>
  close: () => Promise<void>
  /**
   * LISTEN on a channel; PGlite and PostgreSQL both support it. Returns an unlisten function. On
   * PostgreSQL the listening connection can drop (server restart, terminated backend): `onLost` is
   * called at once, the channel is listened to again with a backoff, and `onRestored` follows; what
   * was notified in between is lost, so a consumer that caches must stop trusting its cache meanwhile.
   */
  listen: (channel: string, onMessage: (payload: string) => void, events?: ListenEvents) => Promise<() => Promise<void>>
  notify: (channel: string, payload: string) => Promise<void>
  /** PostgreSQL only: the query pool's connections (the LISTEN pool apart), for the metrics. */
  poolStats?: () => { size: number, inUse: number, idle: number, waiting: number }
  /** PGlite only: statements and transactions holding (active, 0 or 1) or waiting for its one connection, for the metrics. */
  queueStats?: () => { active: number, waiting: number }
  /** PGlite only: the whole data directory as a tarball, loadable with `loadDataDir` (test templates, inspection). */
  dumpDataDir?: () => Promise<Blob>
}

export interface DatabaseOptions {
  /** postgres://… for a server; otherwise embedded PGlite. */
  databaseUrl: string | null
  /**
   * A direct connection to the same database for what needs a session of its own: LISTEN and the
   * migration lock. Behind PgBouncer in transaction mode `databaseUrl` is the pooler and this is the
   * server itself; unset, `databaseUrl`.
   */
  listenUrl?: string | null
  /** PGlite data folder; null keeps it in memory. */
  dataDir: string | null
  /** PGlite only: start from this dumped data directory instead of an empty cluster (skips initdb). */
  loadDataDir?: Blob
  poolSize?: number
  /** PostgreSQL: how long a query waits for a pool connection (or a new one to open) before it fails (isPoolTimeout). */
  acquireTimeoutMs?: number
  /**
   * PostgreSQL: the longest one statement may run (`statement_timeout`, sent at connect on a direct
   * connection; a transaction pooler refuses session settings at connect, so there it belongs on the role).
   */
  statementTimeoutMs?: number
}

/** pg-pool's errors when no connection came within the acquire timeout: the database is busy, not broken. */
const POOL_TIMEOUT = /^(timeout exceeded when trying to connect|Connection terminated due to connection timeout)$/

/** PostgreSQL's query_canceled with the statement_timeout reason (a cancel by an operator reads otherwise). */
const STATEMENT_TIMEOUT = /statement timeout/

/** Whether an error (raw, or wrapped by drizzle as `cause`) is a statement cancelled by statement_timeout: the request gets 503. */
export function isStatementTimeout (error: unknown): boolean {
  let current: unknown = error
  for (let depth = 0; depth < 4 && typeof current === 'object' && current !== null; depth++) {
    const { code, message } = current as { code?: unknown, message?: unknown }
    if (code === '57014' && typeof message === 'string' && STATEMENT_TIMEOUT.test(message)) return true
    current = (current as { cause?: unknown }).cause
  }
  return false
}

/** Whether an error (raw, or wrapped by drizzle as `cause`) is a pool acquire timeout: the request gets 503. */
export function isPoolTimeout (error: unknown): boolean {
  let current: unknown = error
  for (let depth = 0; depth < 4 && typeof current === 'object' && current !== null; depth++) {
    if (current instanceof Error && POOL_TIMEOUT.test(current.message)) return true
    current = (current as { cause?: unknown }).cause
  }
  return false
}

function journalLength (): number {
  const journal = JSON.parse(readFileSync(join(MIGRATIONS_FOLDER, 'meta', '_journal.json'), 'utf8')) as { entries: unknown[] }
  return journal.entries.length
}

async function countApplied (executor: SqlExecutor): Promise<number> {
  const exists = await executor.executeSql("select to_regclass('drizzle.__drizzle_migrations') is not null as present")
  if (exists.rows[0]?.present !== true) return 0
  const { rows } = await executor.executeSql('select count(*)::int as n from drizzle.__drizzle_migrations')
  return rows[0].n as number
}

async function openPglite (dataDir: string | null, loadDataDir?: Blob): Promise<Database> {
  let folder: string | undefined
  let release = () => {}
  if (dataDir !== null) {
    folder = join(dataDir, 'pgdata')
    mkdirSync(folder, { recursive: true })
    release = claimDataDir(dataDir)
  }
  let client: PGlite
  try {
    client = await PGlite.create(folder, loadDataDir === undefined ? {} : { loadDataDir })
  } catch (error) {
    release()
    throw error
  }
  const queue = yieldToIoBeforeEachTurn(client)
  parseTimesAsText(client)
  const db = drizzlePglite(client, { schema }) as unknown as Db
  trackCommits(db)
  const executeSql = async (text: string, values?: unknown[]): Promise<SqlResult> => {
    // PGlite's extended protocol takes one statement; pg-boss sends multi-statement scripts without values.
    // Dates come back as Date objects here, as node-postgres gives them (the instance answers them as text for drizzle).
    if (values === undefined || values.length === 0) {
      const results = await client.exec(text, { parsers: DEFAULT_TIME_PARSERS })
      const last = results[results.length - 1]
      return { rows: last?.rows ?? [], rowCount: last?.affectedRows ?? 0 }
    }
    const result = await client.query(text, values, { parsers: DEFAULT_TIME_PARSERS })
    return { rows: result.rows as any[], rowCount: result.affectedRows ?? 0 }
  }
  const database: Database = {
    kind: 'pglite',
    db,
    executeSql,
    migrate: async () => { await migratePglite(db as any, { migrationsFolder: MIGRATIONS_FOLDER }) },
    pendingMigrations: async () => journalLength() - await countApplied(database),
    close: async () => {
      if (!client.closed) await client.close()
      release()
    },
    // in-process: there is no connection to lose, so the events of ListenEvents never fire
    listen: async (channel, onMessage) => client.listen(channel, onMessage),
    notify: async (channel, payload) => { await client.query('select pg_notify($1, $2)', [channel, payload]) },
    dumpDataDir: async () => await client.dumpDataDir('none'),
    queueStats: () => ({ active: Math.min(queue.inFlight, 1), waiting: Math.max(queue.inFlight - 1, 0) })
  }
  return database
}

/**
 * PGlite runs Postgres in this thread, and a query that reads and writes memory never waits on I/O: the
 * hand-off from one query or transaction to the next waiting one is a microtask, so a few callers
 * queued on it (16 writers, the dispatcher, the attempts' writes) keep the event loop from its timers
 * and sockets for as long as the queue stays full. Measured at a load of 16–22 on 2 cores: no webhook
 * left the process and no timer fired in the 11–19 s the writers took, then the backlog drained. Each
 * query, exec and transaction therefore waits for the event loop's next turn before it queues
 * (`setImmediate`: after the loop's I/O, not a timer), so sockets and timers get a turn at least once
 * per round of the queue, and the pipeline slows in proportion to the CPU it gets instead of stopping.
 * The calls in flight are counted: all but one of them wait for the connection (the metrics' queue).
 */
function yieldToIoBeforeEachTurn (client: PGlite): { inFlight: number } {
  const queue = { inFlight: 0 }
  const turn = async (): Promise<void> => { await new Promise<void>((resolve) => setImmediate(resolve)) }
  const counted = async <T>(run: () => Promise<T>): Promise<T> => {
    queue.inFlight++
    try {
      await turn()
      return await run()
    } finally {
      queue.inFlight--
    }
  }
  const query = client.query.bind(client)
  const exec = client.exec.bind(client)
  const transaction = client.transaction.bind(client)
  client.query = async (...args) => await counted(async () => await query(...args))
  client.exec = async (...args) => await counted(async () => await exec(...args))
  client.transaction = async (...args) => await counted(async () => await transaction(...args))
  return queue
}

/**
 * node-postgres' parsers, with dates, times and intervals (and their arrays, and numeric arrays) left as
 * the text the server sent, as drizzle's `execute` leaves them: a named query answers what `rows` would.
 */
const TEXT_TYPE_IDS = new Set(TEXT_TYPES)
const TEXT_TIMES = {
  getTypeParser: (typeId: number, format?: 'text' | 'binary') => TEXT_TYPE_IDS.has(typeId) ? (value: string) => value : pg.types.getTypeParser(typeId, format as 'text')
}

/** A named statement on node-postgres (server/db/rows.ts namedRows): the pool, or a transaction's client. */
const namedQuery: NamedQuery = async (target, name, text, values) =>
  (await (target as pg.Pool).query({ name, text, values, types: TEXT_TIMES })).rows

async function openPostgres (databaseUrl: string, listenUrl: string, poolSize: number, acquireTimeoutMs: number,
  statementTimeoutMs: number | null): Promise<Database> {
  // a query that cannot get a connection in time fails (503) instead of queueing without end behind a busy pool,
  // and one that runs too long is cancelled by the server (503 too) instead of holding its connection
  const direct = listenUrl === databaseUrl
  const pool = new pg.Pool({
    connectionString: databaseUrl,
    max: poolSize,
    connectionTimeoutMillis: acquireTimeoutMs,
    application_name: 'app-platform',
    ...(direct && statementTimeoutMs !== null ? { statement_timeout: statementTimeoutMs } : {})
  })
  // An idle client that errors (server restart) must not crash the process; the pool replaces it.
  pool.on('error', () => {})
  const db = drizzlePg(pool, { schema }) as unknown as Db
  trackCommits(db)
  // a separate listen URL says DATABASE_URL is a transaction pooler, where named statements do not survive
  if (direct) keepsSessions(db, namedQuery)
  // LISTEN holds its connection for good (one per channel): those come from a pool of their own, so that
  // all of `poolSize` serves queries, and on the direct connection, since a transaction pooler keeps no session
  const listenPool = new pg.Pool({ connectionString: listenUrl, max: 32, application_name: 'app-platform-listen' })
  listenPool.on('error', () => {})
  const listener = createPgListener(listenPool)
  const database: Database = {
    kind: 'postgres',
    db,
    executeSql: async (text, values) => {
      const result = await pool.query(text, values as any[])
      return { rows: result.rows, rowCount: result.rowCount }
    },
    migrate: async () => {
      // A session-level advisory lock, so concurrent starts wait and then find nothing to do: the lock and the
      // migrations on one direct connection (through a transaction pooler, unlock could reach another session)
      const lock = new pg.Client({ connectionString: listenUrl, application_name: 'app-platform-migrate' })
      await lock.connect()
      try {
        await lock.query('select pg_advisory_lock($1)', [MIGRATION_LOCK_KEY])
        await migratePg(drizzlePg(lock, { schema }), { migrationsFolder: MIGRATIONS_FOLDER })
      } finally {
        await lock.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]).catch(() => {})
        await lock.end()
      }
    },
    pendingMigrations: async () => journalLength() - await countApplied(database),
    close: async () => {
      await listener.stopAll()
      if (!listenPool.ended) await listenPool.end()
      if (!pool.ended) await pool.end()
    },
    listen: listener.listen,
    notify: async (channel, payload) => { await pool.query('select pg_notify($1, $2)', [channel, payload]) },
    poolStats: () => ({ size: poolSize, inUse: pool.totalCount - pool.idleCount, idle: pool.idleCount, waiting: pool.waitingCount })
  }
  return database
}

export async function openDatabase (options: DatabaseOptions): Promise<Database> {
  return options.databaseUrl !== null
    ? await openPostgres(options.databaseUrl, options.listenUrl ?? options.databaseUrl, options.poolSize ?? 10,
      options.acquireTimeoutMs ?? DEFAULT_ACQUIRE_TIMEOUT_MS, options.statementTimeoutMs ?? null)
    : await openPglite(options.dataDir, options.loadDataDir)
}

/**
 * Raw SQL inside a drizzle transaction, for libraries that take an `executeSql` seam (pg-boss's
 * `send(..., { db })`), so their writes commit or roll back with ours. Both drivers' transaction
 * clients (pg's PoolClient, PGlite's Transaction) answer `query(text, values)` with `{ rows }`.
 */
export function txExecutor (tx: Tx): SqlExecutor {
  const client = (tx as unknown as { session: { client: { query: (text: string, values?: unknown[]) => Promise<SqlResult> } } }).session.client
  return { executeSql: async (text, values) => await client.query(text, values) }
}

/** A cheap round trip, for readiness checks. */
export async function ping (db: Db): Promise<void> {
  await db.execute(sql`select 1`)
}
