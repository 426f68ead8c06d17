import { and, asc, eq, getTableColumns, gte, lte, sql, type SQL } from 'drizzle-orm'
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core'
import type { Executor } from '../../server/db/client.ts'
import { badRequest as serverBadRequest } from '../../server/http-errors.ts'
import type { PageLimits } from '../../server/schemas.ts'
import { badRequest } from './errors.ts'

/**
 * Incremental sync (DESIGN §25): a list in cursor mode reads what changed since a time, oldest change
 * first over (updated_at, id), one keyset page at a time: a deep page costs what the first does, and a
 * record changed after the app read it comes again, later in the order. The cursor names the last row
 * shown, its time as the database's own text (microseconds kept: a Date would round them away and
 * show a row twice), and the first page's filter, so that later pages send `cursor` and `limit` only.
 */

/** What a list's query says of cursor mode; a list is in cursor mode when either is given. */
export interface SyncQuery { updatedSince?: string, cursor?: string, limit?: number, page?: number }

const ISO_8601 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,6})?(Z|[+-]\d{2}:\d{2})$/
const CURSOR_TIME = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}(\.\d{1,6})?[+-]\d{2}(:\d{2})?$/
const CURSOR_ID = /^[A-Za-z0-9_-]{1,64}$/
const FILTER_MAX = 100

/** An ISO 8601 time with its zone (1970-01-01T00:00:00Z), else 400 `updated_since_invalid`. */
export function parseUpdatedSince (value: string): string {
  if (!ISO_8601.test(value) || Number.isNaN(Date.parse(value))) {
    throw badRequest('updated_since_invalid', 'updatedSince must be an ISO 8601 time with its zone, e.g. 1970-01-01T00:00:00Z')
  }
  return value
}

interface Position { at: string, id: string, filter: string | null }

function encodeCursor ({ at, id, filter }: Position): string {
  return Buffer.from(JSON.stringify(filter === null ? [at, id] : [at, id, filter])).toString('base64url')
}

function decodeCursor (cursor: string): Position {
  let value: unknown
  try {
    value = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'))
  } catch {
    value = null
  }
  if (Array.isArray(value) && (value.length === 2 || value.length === 3)) {
    const [at, id, filter] = value as unknown[]
    if (typeof at === 'string' && CURSOR_TIME.test(at) && typeof id === 'string' && CURSOR_ID.test(id) &&
      (filter === undefined || (typeof filter === 'string' && filter.length > 0 && filter.length <= FILTER_MAX && !filter.includes('\u0000')))) {
      return { at, id, filter: filter ?? null }
    }
  }
  throw serverBadRequest('cursor_invalid', 'cursor is not one this list gave out: pass its nextCursor as it was')
}

/** A synced table: a business's rows with their last change. */
type SyncTable = PgTable & { businessId: PgColumn, updatedAt: PgColumn, id: PgColumn }

/** The one filter a list may narrow by (an order's status, a product's category, a review's product). */
export interface SyncFilter { name: string, column: PgColumn, value: string | undefined }

/**
 * One page of `table`'s rows of the business in cursor mode, and the next page's cursor (null on the
 * last). `settleSeconds` hides the changes stamped more recently than that: a row is stamped when its
 * transaction starts and seen when it commits, so a longer transaction could otherwise commit a change
 * older than a cursor already handed out (config SYNC_SETTLE_SECONDS; 0 where transactions run one at a time).
 */
export async function syncPage<T extends SyncTable> (executor: Executor, table: T, businessId: string, query: SyncQuery,
  limits: PageLimits, settleSeconds: number, filter?: SyncFilter): Promise<{ rows: Array<T['$inferSelect']>, limit: number, nextCursor: string | null }> {
  if (query.page !== undefined) throw badRequest('sync_mode_conflict', 'page is for page mode: in cursor mode follow nextCursor')
  if (query.updatedSince !== undefined && query.cursor !== undefined) {
    throw badRequest('sync_mode_conflict', 'Send updatedSince on the first page and cursor (with limit) on the next ones, not both')
  }
  const limit = Math.min(query.limit ?? limits.defaultLimit, limits.maxLimit)
  const where: SQL[] = [eq(table.businessId, businessId)]
  let filterValue = filter?.value ?? null
  if (query.cursor !== undefined) {
    const position = decodeCursor(query.cursor)
    if (filter !== undefined && filter.value !== undefined && filter.value !== position.filter) {
      throw serverBadRequest('cursor_invalid', `This cursor was given for ${filter.name}=${JSON.stringify(position.filter)}: send the cursor without ${filter.name}`)
    }
    if (filter === undefined && position.filter !== null) throw serverBadRequest('cursor_invalid', 'cursor is not one this list gave out: pass its nextCursor as it was')
    filterValue = position.filter
    where.push(sql`(${table.updatedAt}, ${table.id}) > (${position.at}::timestamptz, ${position.id})`)
  } else {
    where.push(gte(table.updatedAt, sql`${parseUpdatedSince(query.updatedSince as string)}::timestamptz`))
  }
  if (filter !== undefined && filterValue !== null) where.push(eq(filter.column, filterValue))
  if (settleSeconds > 0) where.push(lte(table.updatedAt, sql`now() - make_interval(secs => ${settleSeconds})`))
  const found = await (executor.select({ ...getTableColumns(table), cursorAt: sql<string>`${table.updatedAt}::text` })
    .from(table as PgTable).where(and(...where)).orderBy(asc(table.updatedAt), asc(table.id)).limit(limit + 1) as Promise<unknown> as Promise<Array<T['$inferSelect'] & { cursorAt: string, id: string }>>)
  const page = found.slice(0, limit)
  const last = page.at(-1)
  const nextCursor = found.length > limit && last !== undefined ? encodeCursor({ at: last.cursorAt, id: last.id, filter: filterValue }) : null
  return { rows: page.map(({ cursorAt: _, ...row }) => row as T['$inferSelect']), limit, nextCursor }
}
