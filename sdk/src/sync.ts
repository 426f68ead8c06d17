/**
 * Incremental sync (DESIGN §25): the App API's products, orders and reviews lists in cursor mode.
 * A list is in cursor mode when the query has `updatedSince` or `cursor`; it is ordered by
 * (updatedAt, id) ascending and answers `{data, limit, nextCursor}`, nextCursor null on the last page.
 */
import type { OrderStatus } from './types.ts'

export { SYNC_RESOURCES, type SyncResource } from './contract/bulk-exports.ts'
import type { SyncResource } from './contract/bulk-exports.ts'

/** Where a full sync starts: every record ever updated. */
export const SYNC_EPOCH = '1970-01-01T00:00:00Z'

/** One page of a list in cursor mode (the contract's CursorPage). */
export interface SyncPage<T> {
  data: T[]
  /** The page size used. */
  limit: number
  /** The next page's cursor; null on the last page. */
  nextCursor: string | null
}

/** The filters each list takes besides the cursor; kept by the cursor for the later pages. */
export interface SyncFilters {
  products: { category?: string }
  orders: { status?: OrderStatus }
  reviews: { productId?: string }
}

export type SyncParams<R extends SyncResource> = SyncFilters[R] & {
  /** Records updated at or after this time (inclusive). Default: 1970-01-01T00:00:00Z, a full sync. */
  updatedSince?: string | Date
  /** A nextCursor this list gave out: go on from there (the filters are the cursor's, any given here are ignored). */
  cursor?: string
  /** Page size; clamped by the server to the list's maximum. */
  limit?: number
}

/** The query of one page: the first sends updatedSince and the filters, a later one its cursor and limit only. */
export function syncQuery<R extends SyncResource> (params: SyncParams<R>): Record<string, string | number | undefined> {
  const { updatedSince, cursor, limit, ...filters } = params
  if (cursor !== undefined) return { cursor, limit }
  const since = updatedSince instanceof Date ? updatedSince.toISOString() : updatedSince ?? SYNC_EPOCH
  return { ...filters as Record<string, string | undefined>, updatedSince: since, limit }
}

/**
 * The records of a list in cursor mode, one by one, in (updatedAt, id) order, following nextCursor
 * until it is null. `lastUpdatedAt` is the updatedAt of the record just yielded: store it, and a
 * later `sync(resource, { updatedSince: lastUpdatedAt })` sees everything that changed since,
 * that last record again included (updatedSince is inclusive: upsert by id).
 */
export class SyncIterator<T extends { id: string }> implements AsyncIterable<T> {
  #lastUpdatedAt: string | null = null
  #lastId: string | null = null
  #pages = 0
  #started = false
  readonly #fetchPage: (query: Record<string, string | number | undefined>) => Promise<SyncPage<T>>
  readonly #first: Record<string, string | number | undefined>

  constructor (fetchPage: (query: Record<string, string | number | undefined>) => Promise<SyncPage<T>>, first: Record<string, string | number | undefined>) {
    this.#fetchPage = fetchPage
    this.#first = first
  }

  /** updatedAt of the last record yielded; null before the first. Resume later with `updatedSince` set to it. */
  get lastUpdatedAt (): string | null { return this.#lastUpdatedAt }
  /** id of the last record yielded; null before the first. */
  get lastId (): string | null { return this.#lastId }
  /** Pages fetched so far (each one request). */
  get pages (): number { return this.#pages }

  async * [Symbol.asyncIterator] (): AsyncGenerator<T, void, undefined> {
    // one walk per iterator: its state (lastUpdatedAt) describes that walk
    if (this.#started) throw new Error('a SyncIterator walks its list once: call sync() again to start over')
    this.#started = true
    let query = this.#first
    for (;;) {
      const page = await this.#fetchPage(query)
      this.#pages += 1
      for (const record of page.data) {
        const updatedAt = (record as { updatedAt?: unknown }).updatedAt
        if (typeof updatedAt === 'string') this.#lastUpdatedAt = updatedAt
        this.#lastId = record.id
        yield record
      }
      if (page.nextCursor === null || page.nextCursor === undefined) return
      query = { cursor: page.nextCursor, limit: query.limit }
    }
  }
}
