import { eq, sql } from 'drizzle-orm'
import { checkScopeUses } from '../../server/db/schema/index.ts'
import type { Db } from '../../server/db/client.ts'
import { databaseNow, type Clock } from '../../server/clock.ts'

/** A (installation, scope) pair is written at most this often per process, and this many are remembered. */
const SCOPE_REWRITE_MS = 10 * 60 * 1000
const SCOPE_MEMORY = 100_000

/**
 * The scopes App API calls exercised, for `scopes.used`: a small factory over its state, the pairs
 * not yet written and the ones written lately (not written again for a while).
 */
export function createScopeUses (db: Db, clock: Clock) {
  // scopes exercised by App API calls, buffered; a pair written lately is not written again for a while
  let pendingUses = new Map<string, { installationId: string, scope: string }>()
  let written = new Map<string, number>()
  function record (installationId: string, scope: string): void {
    const key = `${installationId} ${scope}`
    const last = written.get(key)
    if (last !== undefined && clock.nowMs() - last < SCOPE_REWRITE_MS) return
    if (written.size >= SCOPE_MEMORY) written = new Map()
    written.set(key, clock.nowMs())
    pendingUses.set(key, { installationId, scope })
  }
  // writes one after another: a flush (the timer's) may still be writing when `exercised` asks, and must be waited for
  let writing: Promise<void> = Promise.resolve()
  async function write (rows: Array<{ installationId: string, scope: string }>): Promise<void> {
    await db.insert(checkScopeUses).values(rows.map((row) => ({ ...row, lastUsedAt: databaseNow() })))
      .onConflictDoUpdate({ target: [checkScopeUses.installationId, checkScopeUses.scope], set: { lastUsedAt: sql`excluded.last_used_at` } })
  }
  /** Writes what is pending, after every earlier write has ended (an earlier one's failure is its own caller's). */
  async function flush (): Promise<void> {
    const rows = [...pendingUses.values()]
    pendingUses = new Map()
    const next = writing.catch(() => {}).then(async () => { if (rows.length > 0) await write(rows) })
    writing = next
    await next
  }
  async function exercised (installationId: string): Promise<string[]> {
    await flush()
    const rows = await db.select({ scope: checkScopeUses.scope }).from(checkScopeUses).where(eq(checkScopeUses.installationId, installationId))
    return rows.map((row) => row.scope)
  }
  return { record, flush, exercised }
}
