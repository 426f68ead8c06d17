import { createHash } from 'node:crypto'
import { and, asc, desc, eq, getTableColumns, sql, type SQL } from 'drizzle-orm'
import type { PgColumn, PgDialect, PgTable } from 'drizzle-orm/pg-core'
import type { Executor } from './client.ts'
import { databaseOf } from './after-commit.ts'
import { keptSessions, namedQueryOf, type NamedQuery } from './sessions.ts'
import { badRequest } from '../http-errors.ts'
import { pageWindow } from '../schemas.ts'

/**
 * Rows of a raw query, typed by the query: `rows(db, sql<{ id: string }>\`select id …\`)`.
 * Both drivers (PGlite, node-postgres) answer `execute` with `{ rows }`.
 */
export async function rows<T> (executor: Executor, query: SQL<T>): Promise<T[]> {
  const result = await executor.execute(query) as unknown as { rows: T[] }
  return result.rows
}

/**
 * drizzle's `prepare()` without a statement name: node-postgres then sends an unnamed statement, which
 * PgBouncer's transaction mode passes through (a named one exists on one server connection only, and the
 * next transaction may get another: "prepared statement does not exist").
 */
const UNNAMED = undefined as unknown as string

/** The name to give drizzle's `prepare()` on this executor: `name` where sessions are kept, else none. */
export const statementName = (executor: Executor, name: string): string => keptSessions(executor) ? name : UNNAMED

/**
 * A statement built and prepared once per executor under `name` (a unique name per SQL text), so a
 * request pays for its parameters only; named where the connections are the server's own (statementName).
 * Transactions are executors of their own and build theirs again.
 */
const preparedStatements = new WeakMap<Executor, Map<string, unknown>>()
export function preparedOnce<T> (executor: Executor, name: string, build: (name: string) => T): T {
  let statements = preparedStatements.get(executor)
  if (statements === undefined) preparedStatements.set(executor, statements = new Map())
  let statement = statements.get(name) as T | undefined
  if (statement === undefined) statements.set(name, statement = build(statementName(executor, name)))
  return statement
}

/** How a named statement is sent from `executor`, and to what: the database's pool, or a transaction's connection on it. */
function namedSender (executor: Executor): { send: NamedQuery, target: unknown } | null {
  const own = namedQueryOf(executor)
  if (own !== null) return { send: own, target: (executor as unknown as { $client: unknown }).$client }
  const db = databaseOf(executor)
  const viaDb = db === undefined ? null : namedQueryOf(db)
  if (viaDb !== null) return { send: viaDb, target: (executor as unknown as { session: { client: unknown } }).session.client }
  return null
}

/** Statement names by SQL text; texts beyond this many are sent unnamed (a call site whose text varies must not fill it). */
const namesByText = new Map<string, string>()
const MAX_NAMED_TEXTS = 200

/**
 * Rows of a raw query (as `rows`), sent as a named statement where the connections are the server's
 * own: each connection parses and plans it once, and later calls send only its parameters (the
 * dispatcher's fan-out, planned anew each time, cost the server more than running it). The name is
 * `name` and a hash of the text, so a text that changes gets a statement of its own. Elsewhere (PGlite,
 * a transaction pooler) it is sent unnamed, as `rows` does. The answer is what `rows` answers (the driver's
 * side: client.ts).
 */
export async function namedRows<T> (executor: Executor, name: string, query: SQL<T>): Promise<T[]> {
  const sender = namedSender(executor)
  if (sender === null) return await rows(executor, query)
  const { sql: text, params } = (executor as unknown as { dialect: PgDialect }).dialect.sqlToQuery(query)
  let named = namesByText.get(text)
  if (named === undefined) {
    if (namesByText.size >= MAX_NAMED_TEXTS) return await rows(executor, query)
    namesByText.set(text, named = `${name}_${createHash('sha1').update(text).digest('hex').slice(0, 12)}`)
  }
  return await sender.send(sender.target, named, text, params) as T[]
}

/** The list's total beside every row of its page (`count(*) over ()`): the page and its total in one round trip. */
const totalOver = () => sql<number>`count(*) over ()`.mapWith(Number)

/** The total of a page read with totalOver: an empty page has none, so only a page past the end counts on its own. */
async function pageTotal (rows: ReadonlyArray<{ total: number }>, offset: number, count: () => Promise<number>): Promise<number> {
  if (rows.length > 0) return rows[0].total
  return offset === 0 ? 0 : await count()
}

/** How many rows of `table` match `where`: the `total` of a paginated list. */
export async function countRows (executor: Executor, table: PgTable, where?: SQL): Promise<number> {
  const [{ total }] = await executor.select({ total: sql<number>`count(*)::int` }).from(table).where(where)
  return total
}

/** PostgreSQL's unique_violation, whether the driver error is raw or wrapped by drizzle (`cause`). */
export function isUniqueViolation (error: unknown): boolean {
  let current: unknown = error
  for (let depth = 0; depth < 3 && typeof current === 'object' && current !== null; depth++) {
    if ((current as { code?: unknown }).code === '23505') return true
    current = (current as { cause?: unknown }).cause
  }
  return false
}

/** A table of a business's own rows, listed newest first. */
type BusinessTable = PgTable & { businessId: PgColumn, createdAt: PgColumn, id: PgColumn }

/** One more column that narrows a business's list, and the name its total is kept under (`<name>:<value>`). */
export interface PageFilter { name: string, column: PgColumn, value: unknown }

/**
 * Where a list's total is kept (server/db/schema/aggregates.ts, maintained by the database): a scalar
 * subquery for a business and, when the list is narrowed, the filter's value (placeholders in the
 * prepared page query, values when the total is read alone).
 */
export type KeptTotal = (businessId: unknown, filter?: unknown) => SQL

/** The total of a list counted in list_counts: key '' for the whole list, `<filter name>:<value>` narrowed. */
export const listCountTotal = (list: string, filterName?: string): KeptTotal => (businessId, filter) => sql`(select coalesce(sum(n), 0) from list_counts
  where business_id = ${businessId}::text and list = ${list} and key = ${filter === undefined || filterName === undefined ? '' : sql`${filterName + ':'}::text || ${filter}::text`})`

/**
 * One page of a business's rows of `table`, newest first (ties by id), with the list's total, in one
 * round trip: a query built once per executor under `name`, or `<name>_by_<filter>` when one more
 * column narrows the list (preparedOnce). With `kept`, the total is read from the counts the database
 * keeps (no count at all) and the page's ids come first from the list's index alone (a deep page skips
 * index entries, not rows); without it, the total is counted (`count(*) over ()`), for the small lists.
 */
export async function businessPage<T extends BusinessTable> (executor: Executor, table: T, name: string, businessId: string,
  window: { limit: number, offset: number }, filter?: PageFilter, kept?: KeptTotal): Promise<{ rows: Array<T['$inferSelect']>, total: number }> {
  const statement = filter === undefined ? name : `${name}_by_${filter.name}`
  const query = preparedOnce(executor, statement, (prepared) => {
    const filters: SQL[] = [eq(table.businessId, sql.placeholder('businessId'))]
    if (filter !== undefined) filters.push(eq(filter.column, sql.placeholder('filter')))
    const order = [desc(table.createdAt), asc(table.id)]
    if (kept === undefined) {
      return executor.select({ row: table, total: totalOver() }).from(table as PgTable).where(and(...filters))
        .orderBy(...order).limit(sql.placeholder('limit')).offset(sql.placeholder('offset')).prepare(prepared)
    }
    const ids = executor.select({ pageId: sql<string>`${table.id}`.as('page_id') }).from(table as PgTable).where(and(...filters))
      .orderBy(...order).limit(sql.placeholder('limit')).offset(sql.placeholder('offset')).as('page_ids')
    const total = kept(sql.placeholder('businessId'), filter === undefined ? undefined : sql.placeholder('filter'))
    return executor.select({ row: table, total: sql<number>`${total}`.mapWith(Number) }).from(table as PgTable)
      .innerJoin(ids, eq(table.id, ids.pageId)).orderBy(...order).prepare(prepared)
  }) as unknown as { execute: (params: Record<string, unknown>) => Promise<Array<{ row: T['$inferSelect'], total: number }>> }
  const params = { businessId, filter: filter?.value, limit: window.limit, offset: window.offset }
  const page = await query.execute(params)
  const total = await pageTotal(page, window.offset, async () => kept !== undefined
    ? Number((await rows(executor, sql<{ total: string }>`select ${kept(businessId, filter?.value)} as total`))[0].total)
    : await countRows(executor, table, and(eq(table.businessId, businessId), ...(filter === undefined ? [] : [eq(filter.column, filter.value)]))))
  return { rows: page.map((entry) => entry.row), total }
}

/** Rows one prune statement deletes: a batch takes milliseconds, so work queued behind it waits no longer. */
export const PRUNE_BATCH = 2000

/**
 * Deletes the rows of `table` matching `where`, `batch` at a time, each batch a statement of its own
 * (its own transaction, its own row locks) and a turn of the event loop between batches, so deliveries
 * and requests interleave with a long prune instead of waiting for it; nothing is read into Node but
 * the count. `key` is the table's primary key column. Returns how many rows went.
 */
export async function deleteInBatches (executor: Executor, table: string, key: string, where: SQL, batch = PRUNE_BATCH): Promise<number> {
  const name = sql.identifier(table)
  const id = sql.identifier(key)
  let deleted = 0
  for (;;) {
    const [{ n }] = await rows(executor, sql<{ n: number }>`with doomed as (select ${id} from ${name} where ${where} limit ${batch}),
      gone as (delete from ${name} where ${id} in (select ${id} from doomed) returning 1)
      select count(*)::int as n from gone`)
    deleted += n
    if (n < batch) return deleted
    await new Promise((resolve) => setImmediate(resolve))
  }
}

/** The most rows a log's `total` counts (the console's delivery and hook-call logs): past it, the total says this many. */
export const LOG_TOTAL_CAP = 10_000

/**
 * How many rows of `table` match `where`, counting no further than LOG_TOTAL_CAP: a log of ten million
 * rows costs as much to count as one of ten thousand (the filter's index, read LOG_TOTAL_CAP + 1 entries at most).
 */
export async function cappedCount (executor: Executor, table: PgTable, where: SQL | undefined): Promise<number> {
  const [{ total }] = await rows(executor, sql<{ total: number }>`select count(*)::int as total from (select 1 from ${table} where ${where ?? sql`true`} limit ${LOG_TOTAL_CAP}) as capped`)
  return total
}

/**
 * Keyset pages of a log, newest first over (created_at, id): a deep page costs what the first does,
 * where an OFFSET reads every row before it. The cursor names the last row shown, its time as the
 * database's own text (microseconds kept: a JavaScript Date would round them away and skip rows).
 */
const CURSOR_TIME = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}(\.\d{1,6})?[+-]\d{2}(:\d{2})?$/
const CURSOR_ID = /^[A-Za-z0-9_-]{1,64}$/

export function encodeCursor (createdAtText: string, id: string): string {
  return Buffer.from(JSON.stringify([createdAtText, id])).toString('base64url')
}

/** The (time, id) a cursor names, or null when it is not one encodeCursor gave out. */
export function decodeCursor (cursor: string): [string, string] | null {
  try {
    const value: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'))
    if (!Array.isArray(value) || value.length !== 2) return null
    const [at, id] = value as unknown[]
    return typeof at === 'string' && typeof id === 'string' && CURSOR_TIME.test(at) && CURSOR_ID.test(id) ? [at, id] : null
  } catch {
    return null
  }
}

/** A log table: its rows are read newest first over (created_at, id). */
type LogTable = PgTable & { createdAt: PgColumn, id: PgColumn }

/**
 * One page of a log within `where`, newest first: after the `before` cursor when given (else at the
 * page's offset), with its capped total and the cursor of the next page (null on the last). One row past
 * the page says whether there is a next one; the cursor is the last row shown, its time as the database's
 * text. A cursor that is not one this gave out is a 400 `cursor_invalid`, before any SQL.
 */
export async function logPage<T extends LogTable> (
  executor: Executor, table: T, where: SQL | undefined, query: { page?: number, limit?: number, before?: string }
) {
  const { page, limit, offset } = pageWindow(query)
  const cursor = query.before === undefined ? null : decodeCursor(query.before)
  if (query.before !== undefined && cursor === null) throw badRequest('cursor_invalid', 'before is not a cursor this list gave out (use its nextCursor)')
  const after = cursor === null ? where : and(where, sql`(${table.createdAt}, ${table.id}) < (${cursor[0]}::timestamptz, ${cursor[1]})`)
  const [found, total] = await Promise.all([
    executor.select({ ...getTableColumns(table), cursorAt: sql<string>`${table.createdAt}::text` }).from(table as PgTable).where(after)
      .orderBy(desc(table.createdAt), desc(table.id)).limit(limit + 1).offset(cursor === null ? offset : 0) as Promise<Array<T['$inferSelect'] & { cursorAt: string }>>,
    cappedCount(executor, table, where)
  ])
  const rows = found.slice(0, limit)
  const last = rows.at(-1) as { cursorAt: string, id: string } | undefined
  const nextCursor = found.length > limit && last !== undefined ? encodeCursor(last.cursorAt, last.id) : null
  return { rows, total, page, limit, nextCursor }
}
