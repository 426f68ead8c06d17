import { eq, gt, lt, sql } from 'drizzle-orm'
import { revokedSessions } from '../../server/db/schema/index.ts'
import type { Db } from '../../server/db/client.ts'
import type { Clock } from '../../server/clock.ts'

/** NOTIFY channel: `<jti> <expiresAt ms>` for each session signed out, so every process refuses it at once. */
export const SESSION_REVOKED_CHANNEL = 'session_revoked'

/**
 * Signed-out sessions. Each process keeps the unexpired revoked JWT ids in memory (a logout is rare,
 * a session check is on every request), fed by NOTIFY; while the LISTEN connection is down the
 * check asks the database, and the set is reloaded before it is trusted again.
 */
export function createRevocations (db: Db, clock: Clock) {
  const now = (): number => clock.nowMs()
  const revoked = new Map<string, number>()
  /** Told of each session signed out, here or (by NOTIFY) in another process, to end what it holds open. */
  const listeners = new Set<(jti: string) => void>()
  let enabled = false
  let generation = 0

  function prune (): void {
    const at = now()
    for (const [jti, expiresAt] of revoked) if (expiresAt <= at) revoked.delete(jti)
  }

  async function reload (): Promise<void> {
    const rows = await db.select({ jti: revokedSessions.jti, expiresAt: revokedSessions.expiresAt }).from(revokedSessions)
      .where(gt(revokedSessions.expiresAt, new Date(now())))
    revoked.clear()
    for (const row of rows) revoked.set(row.jti, row.expiresAt.getTime())
  }

  function tell (jti: string): void {
    for (const listener of listeners) listener(jti)
  }

  return {
    async isRevoked (jti: string): Promise<boolean> {
      if (enabled) return revoked.has(jti)
      const [row] = await db.select({ jti: revokedSessions.jti }).from(revokedSessions).where(eq(revokedSessions.jti, jti)).limit(1)
      return row !== undefined
    },
    /** Revokes one session until `expiresAt`; other processes hear of it when the transaction commits. */
    async revoke (jti: string, userId: string, expiresAt: Date): Promise<void> {
      await db.transaction(async (tx) => {
        await tx.insert(revokedSessions).values({ jti, userId, expiresAt }).onConflictDoNothing()
        await tx.delete(revokedSessions).where(lt(revokedSessions.expiresAt, new Date(now())))
        await tx.execute(sql`select pg_notify(${SESSION_REVOKED_CHANNEL}, ${`${jti} ${expiresAt.getTime()}`})`)
      })
      revoked.set(jti, expiresAt.getTime())
      tell(jti)
    },
    received (payload: string): void {
      const [jti, expiresAt] = payload.split(' ')
      if (jti !== undefined && jti !== '') {
        revoked.set(jti, Number(expiresAt) || now() + 86_400_000)
        tell(jti)
      }
      if (revoked.size % 1000 === 0) prune()
    },
    /** Calls `listener` with the id of each session signed out from now on; returns how to stop. */
    onRevoked (listener: (jti: string) => void): () => void {
      listeners.add(listener)
      return () => { listeners.delete(listener) }
    },
    /** Off (database checks) while notifications cannot arrive; on again once reloaded from the table. */
    setEnabled (on: boolean): void {
      generation += 1
      enabled = false
      if (!on) return
      const mine = generation
      void reload().then(() => { if (generation === mine) enabled = true }, () => {})
    },
    async start (): Promise<void> {
      generation += 1
      await reload()
      enabled = true
    },
    prune,
    get size () { return revoked.size }
  }
}

export type Revocations = ReturnType<typeof createRevocations>
