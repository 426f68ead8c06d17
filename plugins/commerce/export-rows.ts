import { and, asc, eq, getTableColumns, gte, lte, sql, type SQL } from 'drizzle-orm'
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core'
import type { SyncResource } from '../../sdk/src/contract/bulk-exports.ts'
import type { Tx } from '../../server/db/client.ts'
import { orders, products, reviews } from '../../server/db/schema/index.ts'
import { serializeOrder, serializeProduct, serializeReview } from './serializers.ts'
import type { Order, Product, Review } from './schemas.ts'

/** Rows a FETCH reads at once: the memory an export holds is this many rows, however many it writes. */
export const EXPORT_FETCH_ROWS = 1000

export interface ExportQuery {
  businessId: string
  resource: SyncResource
  /** ISO 8601, inclusive; null: every record. */
  updatedSince: string | null
  /** SYNC_SETTLE_SECONDS, as in cursor mode: changes younger than this are left to the next sync. */
  settleSeconds: number
}

const TABLES = {
  products: { table: products, serialize: serializeProduct },
  orders: { table: orders, serialize: serializeOrder },
  reviews: { table: reviews, serialize: serializeReview }
} as const

type Exported = Product | Order | Review

/**
 * A business's records of one resource for a bulk export (DESIGN §25), oldest change first over
 * (updated_at, id), in the merchant's unversioned shape, batch by batch from a server-side cursor
 * (DECLARE … FETCH) in the caller's transaction: the database streams them, this process holds one
 * batch at a time. The transaction's snapshot is the export's: a record changed meanwhile is exported
 * as it was, and comes again in the next incremental sync.
 */
export async function * exportRecords (tx: Tx, query: ExportQuery): AsyncGenerator<Exported[]> {
  const { table, serialize } = TABLES[query.resource] as unknown as { table: PgTable & Record<string, PgColumn>, serialize: (row: unknown) => Exported }
  const columns = Object.entries(getTableColumns(table))
  const where: SQL[] = [eq(table.businessId, query.businessId)]
  if (query.updatedSince !== null) where.push(gte(table.updatedAt, sql`${query.updatedSince}::timestamptz`))
  if (query.settleSeconds > 0) where.push(lte(table.updatedAt, sql`now() - make_interval(secs => ${query.settleSeconds})`))
  const select = tx.select().from(table).where(and(...where)).orderBy(asc(table.updatedAt), asc(table.id))
  await tx.execute(sql`declare bulk_export_rows no scroll cursor for ${select}`)
  try {
    for (;;) {
      const { rows } = await tx.execute(sql.raw(`fetch ${EXPORT_FETCH_ROWS} from bulk_export_rows`)) as unknown as { rows: Array<Record<string, unknown>> }
      if (rows.length === 0) return
      // the cursor's rows carry the columns' database names and driver values: map them as drizzle's own select would
      yield rows.map((raw) => serialize(Object.fromEntries(columns.map(([key, column]) => {
        const value = raw[column.name]
        return [key, value === null || value === undefined ? null : column.mapFromDriverValue(value)]
      }))))
    }
  } finally {
    await tx.execute(sql`close bulk_export_rows`).catch(() => {})
  }
}
