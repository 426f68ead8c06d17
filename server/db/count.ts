import { sql, type SQL } from 'drizzle-orm'
import type { PgTable } from 'drizzle-orm/pg-core'
import type { Executor } from './client.ts'

/** How many rows of `table` match `where`: the `total` of a paginated list. */
export async function countRows (executor: Executor, table: PgTable, where?: SQL): Promise<number> {
  const [{ total }] = await executor.select({ total: sql<number>`count(*)::int` }).from(table).where(where)
  return total
}
