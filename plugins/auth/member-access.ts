import { eq, sql } from 'drizzle-orm'
import { businessMembers } from '../../server/db/schema/index.ts'
import type { Db, Executor } from '../../server/db/client.ts'
import type { Permission } from '../../sdk/src/contract/staff.ts'

/** NOTIFY channel: the id of each staff member whose permissions changed or who was removed. */
export const MEMBER_CHANGED_CHANNEL = 'business_member_changed'

export interface MemberAccess { businessId: string, userId: string, permissions: Permission[] }

/**
 * What each staff member may do now, as the guards read it on every request of a STAFF session.
 * Each process keeps the members it has seen in memory, forgotten when one changes here or (by
 * NOTIFY) in another process; while the LISTEN connection is down every check asks the database.
 */
export function createMemberAccess (db: Db) {
  const known = new Map<string, MemberAccess | null>()
  let enabled = false
  /** Bumped by every change: a read that began before one does not fill the memory with what it saw. */
  let version = 0

  async function read (memberId: string): Promise<MemberAccess | null> {
    const [row] = await db.select({ businessId: businessMembers.businessId, userId: businessMembers.userId, permissions: businessMembers.permissions })
      .from(businessMembers).where(eq(businessMembers.id, memberId)).limit(1)
    return row ?? null
  }

  return {
    async of (memberId: string): Promise<MemberAccess | null> {
      if (enabled && known.has(memberId)) return known.get(memberId) ?? null
      const seen = version
      const access = await read(memberId)
      if (enabled && seen === version) known.set(memberId, access)
      return access
    },
    /** Tells every process, when the caller's transaction commits, that a member changed. */
    async announce (executor: Executor, memberId: string): Promise<void> {
      await executor.execute(sql`select pg_notify(${MEMBER_CHANGED_CHANNEL}, ${memberId})`)
    },
    /** A member changed (here after the commit, or heard by NOTIFY). */
    changed (memberId: string): void {
      version += 1
      known.delete(memberId)
    },
    /** Off (database reads) while notifications cannot arrive. */
    setEnabled (on: boolean): void {
      version += 1
      known.clear()
      enabled = on
    }
  }
}

export type MemberAccessCache = ReturnType<typeof createMemberAccess>
