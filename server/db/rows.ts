import { sql, type SQL } from 'drizzle-orm'
import type { PgTable } from 'drizzle-orm/pg-core'
import type { Executor } from './client.ts'

/**
 * Rows of a raw query, typed by the query: `rows(db, sql<{ id: string }>\`select id …\`)`.
 * Both drivers (PGlite, node-postgres) answer `execute` with `{ rows }`.
 */
export async function rows<T> (executor: Executor, query: SQL<T>): Promise<T[]> {
  const result = await executor.execute(query) as unknown as { rows: T[] }
  return result.rows
}

/**
 * A statement built and prepared once per executor under `name` (a unique name per SQL text): on
 * PostgreSQL it is parsed and planned once per connection instead of once per request. Transactions
 * are executors of their own and build theirs again.
 */
const preparedStatements = new WeakMap<Executor, Map<string, unknown>>()
export function preparedOnce<T> (executor: Executor, name: string, build: () => T): T {
  let statements = preparedStatements.get(executor)
  if (statements === undefined) preparedStatements.set(executor, statements = new Map())
  let statement = statements.get(name) as T | undefined
  if (statement === undefined) statements.set(name, statement = build())
  return statement
}

/** The list's total beside every row of its page (`count(*) over ()`): the page and its total in one round trip. */
export const totalOver = () => sql<number>`count(*) over ()`.mapWith(Number)

/** The total of a page read with totalOver: an empty page has none, so only a page past the end counts on its own. */
export async function pageTotal (rows: ReadonlyArray<{ total: number }>, offset: number, count: () => Promise<number>): Promise<number> {
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
