import { randomBytes } from 'node:crypto'
import { sql } from 'drizzle-orm'
import type { Executor } from '../../server/db/client.ts'
import type { Clock } from '../../server/clock.ts'

/**
 * The App API's product reads, answered from memory.
 *
 * Every write to a business's products calls `catalogChanged` inside its transaction. That NOTIFYs
 * CATALOG_CHANNEL, which PostgreSQL delivers to every process only once the transaction commits;
 * each process then drops what it holds for that business. In the process that wrote, the business
 * is also left out of the cache from the write until its own NOTIFY comes back, so a client that
 * reads right after its write (read-your-writes) never sees the old catalogue. Elsewhere the staleness
 * is the NOTIFY's travel time (about a millisecond). While the LISTEN connection is down the cache is
 * off, and every entry expires after CATALOG_CACHE_TTL_MS whatever happens.
 */
export const CATALOG_CHANNEL = 'catalog_changed'
/** Safety net only: changes evict at once. */
export const CATALOG_CACHE_TTL_MS = 30_000
/** A change whose NOTIFY never came back (its transaction rolled back) stops counting after this. */
const IN_FLIGHT_MAX_MS = 30_000

/** This process, in NOTIFY payloads: `<origin>:<sequence>:<businessId>`. */
const ORIGIN = randomBytes(6).toString('hex')
let sequence = 0
/** Changes written by this process whose NOTIFY has not come back: businessId → sequence → when (performance.now(): elapsed real time). */
const inFlight = new Map<string, Map<number, number>>()

/** Call inside the transaction that creates, updates or deletes products of `businessId` (stock included). */
export async function catalogChanged (executor: Executor, businessId: string): Promise<void> {
  const seq = ++sequence
  let pending = inFlight.get(businessId)
  if (pending === undefined) inFlight.set(businessId, pending = new Map())
  pending.set(seq, performance.now())
  await executor.execute(sql`select pg_notify(${CATALOG_CHANNEL}, ${`${ORIGIN}:${seq}:${businessId}`})`)
}

/** No change of this process to the business is waiting for its commit. */
function settled (businessId: string): boolean {
  const pending = inFlight.get(businessId)
  if (pending === undefined) return true
  const now = performance.now()
  for (const [seq, since] of pending) if (now - since > IN_FLIGHT_MAX_MS) pending.delete(seq)
  if (pending.size > 0) return false
  inFlight.delete(businessId)
  return true
}

interface Entry { businessId: string, body: string, expiresAt: number }

/**
 * Serialized responses by (business, request key): an LRU bounded by `maxBytes` of response text.
 * A read that started before an invalidation of its business is answered but not stored.
 */
export function createCatalogCache (options: { maxBytes: number, clock: Clock, ttlMs?: number }) {
  const ttlMs = options.ttlMs ?? CATALOG_CACHE_TTL_MS
  const now = (): number => options.clock.nowMs()
  const entries = new Map<string, Entry>()
  const keysByBusiness = new Map<string, Set<string>>()
  /** Reads running per business; an invalidation empties the set, and only members may store. */
  const loading = new Map<string, Set<symbol>>()
  let bytes = 0
  let enabled = options.maxBytes > 0
  let hits = 0
  let misses = 0

  function remove (key: string, entry: Entry): void {
    entries.delete(key)
    bytes -= entry.body.length
    const keys = keysByBusiness.get(entry.businessId)
    keys?.delete(key)
    if (keys?.size === 0) keysByBusiness.delete(entry.businessId)
  }

  function store (businessId: string, key: string, body: string): void {
    if (body.length > options.maxBytes / 8) return
    const previous = entries.get(key)
    if (previous !== undefined) remove(key, previous)
    entries.set(key, { businessId, body, expiresAt: now() + ttlMs })
    bytes += body.length
    let keys = keysByBusiness.get(businessId)
    if (keys === undefined) keysByBusiness.set(businessId, keys = new Set())
    keys.add(key)
    for (const [oldest, entry] of entries) {
      if (bytes <= options.maxBytes) break
      remove(oldest, entry)
    }
  }

  function invalidate (businessId: string): void {
    loading.get(businessId)?.clear()
    for (const key of keysByBusiness.get(businessId) ?? []) remove(key, entries.get(key) as Entry)
  }

  return {
    /**
     * The cached body for (businessId, key), or `load()`'s, stored when no change to the business
     * happened meanwhile. `load` throws for answers that must not be cached (404s).
     */
    async read (businessId: string, key: string, load: () => Promise<string>): Promise<string> {
      if (!enabled || !settled(businessId)) return await load()
      const id = `${businessId}\u0000${key}`
      const entry = entries.get(id)
      if (entry !== undefined) {
        if (entry.expiresAt > now()) {
          hits++
          entries.delete(id)
          entries.set(id, entry)
          return entry.body
        }
        remove(id, entry)
      }
      misses++
      const token = Symbol(key)
      let readers = loading.get(businessId)
      if (readers === undefined) loading.set(businessId, readers = new Set())
      readers.add(token)
      try {
        const body = await load()
        if (enabled && readers.has(token) && settled(businessId)) store(businessId, id, body)
        return body
      } finally {
        readers.delete(token)
        if (readers.size === 0 && loading.get(businessId) === readers) loading.delete(businessId)
      }
    },

    /** A CATALOG_CHANNEL payload arrived: forget the business; if the change was ours, it has committed. */
    received (payload: string): void {
      const [origin, seq, businessId] = payload.split(':', 3)
      if (businessId === undefined) return
      invalidate(businessId)
      if (origin !== ORIGIN) return
      const pending = inFlight.get(businessId)
      pending?.delete(Number(seq))
      if (pending?.size === 0) inFlight.delete(businessId)
    },

    invalidate,

    /** Off while invalidations cannot reach this process (LISTEN down), or when configured with 0 bytes. */
    setEnabled (on: boolean): void {
      enabled = on && options.maxBytes > 0
      entries.clear()
      keysByBusiness.clear()
      for (const readers of loading.values()) readers.clear()
      bytes = 0
    },

    stats: () => ({ enabled, entries: entries.size, bytes, hits, misses })
  }
}

export type CatalogCache = ReturnType<typeof createCatalogCache>
