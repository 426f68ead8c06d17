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
