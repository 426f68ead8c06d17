import { type SQL } from 'drizzle-orm'
import type { Executor } from '../../server/db/client.ts'

/** PostgreSQL's unique_violation, whether the driver error is raw or wrapped by drizzle (`cause`). */
export function isUniqueViolation (error: unknown): boolean {
  let current: unknown = error
  for (let depth = 0; depth < 3 && typeof current === 'object' && current !== null; depth++) {
    if ((current as { code?: unknown }).code === '23505') return true
    current = (current as { cause?: unknown }).cause
  }
  return false
}

/** Rows of a raw query; both drivers (PGlite, node-postgres) answer with `{ rows }`. */
export async function queryRows<T> (executor: Executor, query: SQL): Promise<T[]> {
  const result = await executor.execute(query) as unknown as { rows: T[] }
  return result.rows
}
