import { and, asc, eq, gte, lte, sql, type SQL } from 'drizzle-orm'
import type { PgColumn } from 'drizzle-orm/pg-core'
import type { SyncResource } from '../../sdk/src/contract/bulk-exports.ts'
import { API_VERSION_RELEASES, DOMAIN_API_VERSION, MONEY_FIELDS, MONEY_OBJECTS_CHANGE, type ApiVersion } from '../../sdk/src/contract/api-versions.ts'
import type { Tx } from '../../server/db/client.ts'
import { orders, products, reviews } from '../../server/db/schema/index.ts'

/** Rows a FETCH reads at once: the memory an export holds is this many lines, however many it writes. */
export const EXPORT_FETCH_ROWS = 100
/** Lines handed on at once: tens of KB, young objects a scavenge frees. */
const YIELD_LINES = 50

export interface ExportQuery {
  businessId: string
  resource: SyncResource
  /** ISO 8601, inclusive; null: every record. */
  updatedSince: string | null
  /** SYNC_SETTLE_SECONDS, as in cursor mode: changes younger than this are left to the next sync. */
  settleSeconds: number
  /** The version the lines are shaped in. */
  version: ApiVersion
  /** The business's currency: a product's price carries it from 2026-12. */
  currency: string
}

/**
 * The release changes the export's SQL knows how to write. A new API version that changes a product,
 * an order or a review must teach `line` its change: test/plugins/bulk-exports/lines.test.ts fails
 * until it does, and the export's lines are compared with the App API list's records in every version.
 */
export const EXPORT_KNOWN_CHANGES: readonly string[] = [MONEY_OBJECTS_CHANGE]

const SHAPES = { products: 'Product', orders: 'Order', reviews: 'Review' } as const

/** Whether `version` shows amounts as { amount, currency } objects. */
function moneyObjects (version: ApiVersion): boolean {
  return API_VERSION_RELEASES.some((release) => release.version > DOMAIN_API_VERSION && release.version <= version &&
    release.changes.some((change) => change.id === MONEY_OBJECTS_CHANGE))
}

/** A time as JavaScript's toISOString writes it (milliseconds, UTC, Z): what the App API's records say. */
const iso = (column: PgColumn | SQL) => sql`to_char(date_trunc('milliseconds', ${column}) at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`

/** `json_build_object` over (field, expression) pairs, in the record's field order. */
const object = (fields: ReadonlyArray<readonly [string, SQL | PgColumn]>) =>
  sql`json_build_object(${sql.join(fields.map(([name, value]) => sql`${name}::text, ${value}`), sql`, `)})`

/** The record's fields, each an amount of money shown as the version shows it. */
function withMoney (shape: keyof typeof MONEY_FIELDS, fields: ReadonlyArray<readonly [string, SQL | PgColumn]>, currency: SQL | null) {
  return fields.map(([name, value]) => currency !== null && MONEY_FIELDS[shape].includes(name)
    ? [name, object([['amount', value], ['currency', currency]])] as const
    : [name, value] as const)
}

/**
 * One JSON line per record, written by PostgreSQL: exactly the fields of the App API list's record
 * (plugins/commerce/serializers.ts) in the export's version. Node receives one string a row instead of a
 * row object to decode, map, serialize and stringify: an export of a million orders allocates a few
 * hundred megabytes less and holds the event loop a few milliseconds a batch.
 */
function line (query: ExportQuery): SQL {
  const money = moneyObjects(query.version)
  if (query.resource === 'products') {
    return object(withMoney('Product', [
      ['id', products.id], ['name', products.name], ['description', products.description], ['price', products.price], ['category', products.category],
      ['isAvailable', products.isAvailable], ['imageUrl', products.imageUrl], ['slug', products.slug], ['status', products.status], ['stock', products.stock],
      ['lowStockThreshold', products.lowStockThreshold], ['createdAt', iso(products.createdAt)], ['updatedAt', iso(products.updatedAt)]
    ], money ? sql`${query.currency}::text` : null))
  }
  if (query.resource === 'reviews') {
    return object([
      ['id', reviews.id], ['productId', reviews.productId], ['rating', reviews.rating], ['text', reviews.text], ['authorName', reviews.authorName],
      ['createdAt', iso(reviews.createdAt)], ['updatedAt', iso(reviews.updatedAt)]
    ])
  }
  const currency = money ? sql`${orders.currency}` : null
  const item = object(withMoney('OrderItem', [
    ['productId', sql`item.value->'productId'`], ['name', sql`item.value->'name'`], ['quantity', sql`item.value->'quantity'`],
    ['unitPrice', sql`item.value->'unitPrice'`], ['total', sql`item.value->'total'`]
  ], currency))
  const items = sql`(select coalesce(json_agg(${item} order by item.ordinality), '[]'::json) from jsonb_array_elements(${orders.items}) with ordinality as item)`
  const customer = object([['name', sql`${orders.customer}->'name'`], ['phone', sql`${orders.customer}->'phone'`], ['email', sql`${orders.customer}->'email'`]])
  return object(withMoney('Order', [
    ['id', orders.id], ['orderNumber', orders.orderNumber], ['status', orders.status], ['items', items], ['subtotal', orders.subtotal],
    ['deliveryFee', orders.deliveryFee], ['discount', orders.discount], ['promoCode', orders.promoCode], ['promoDiscount', orders.promoDiscount],
    ['amount', orders.amount], ['currency', orders.currency], ['deliveryMethod', orders.deliveryMethod], ['paymentMethod', orders.paymentMethod],
    ['paymentStatus', orders.paymentStatus], ['isGuest', orders.isGuest], ['customer', customer], ['address', orders.address],
    ['createdAt', iso(orders.createdAt)], ['updatedAt', iso(orders.updatedAt)]
  ], currency))
}

const TABLES = { products, orders, reviews } as const

/**
 * A business's records of one resource for a bulk export (DESIGN §25), oldest change first over
 * (updated_at, id), as JSON lines in the export's version, batch by batch from a server-side cursor
 * (DECLARE … FETCH) in the caller's transaction: the database streams them, this process holds one
 * batch at a time. The transaction's snapshot is the export's: a record changed meanwhile is exported
 * as it was, and comes again in the next incremental sync. Each piece is some lines' text, each ended by "\n", and their count.
 */
export async function * exportLines (tx: Tx, query: ExportQuery): AsyncGenerator<{ text: string, count: number }> {
  const table = TABLES[query.resource]
  const where: SQL[] = [eq(table.businessId, query.businessId)]
  if (query.updatedSince !== null) where.push(gte(table.updatedAt, sql`${query.updatedSince}::timestamptz`))
  if (query.settleSeconds > 0) where.push(lte(table.updatedAt, sql`now() - make_interval(secs => ${query.settleSeconds})`))
  const select = sql`select ${line(query)}::text as line from ${table} where ${and(...where)} order by ${asc(table.updatedAt)}, ${asc(table.id)}`
  await tx.execute(sql`declare bulk_export_lines no scroll cursor for ${select}`)
  try {
    for (;;) {
      const { rows } = await tx.execute(sql.raw(`fetch ${EXPORT_FETCH_ROWS} from bulk_export_lines`)) as unknown as { rows: Array<{ line: string }> }
      if (rows.length === 0) return
      // pieces of YIELD_LINES lines: a string of a whole batch (hundreds of KB) would be born in V8's large-object
      // space, freed only by a full collection, and a million orders would grow the heap by hundreds of MB
      for (let start = 0; start < rows.length; start += YIELD_LINES) {
        let text = ''
        const end = Math.min(start + YIELD_LINES, rows.length)
        for (let i = start; i < end; i++) text += `${rows[i].line}\n`
        yield { text, count: end - start }
      }
    }
  } finally {
    await tx.execute(sql`close bulk_export_lines`).catch(() => {})
  }
}

/** The shapes an export writes, by resource (for the check that every release change is known). */
export const EXPORT_SHAPES = SHAPES
