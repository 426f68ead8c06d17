import { and, eq, isNull, sql } from 'drizzle-orm'
import { installations } from '../../server/db/schema/index.ts'
import { databaseNow } from '../../server/clock.ts'
import type { Executor } from '../../server/db/client.ts'
import type { ApiVersion } from '../../sdk/src/contract/api-versions.ts'
import { announce, type InstallationsContext } from './context.ts'

/**
 * Moves the app's pinned API version: its sandbox (test) installs, or all its live installs. No
 * merchant consent: a version changes shapes, never scopes. Returns how many moved.
 */
export async function pinApiVersion (context: InstallationsContext, appId: string, version: ApiVersion, which: 'sandbox' | 'all'): Promise<number> {
  const moved = await context.executor.update(installations).set({ apiVersion: version, updatedAt: databaseNow() })
    .where(and(eq(installations.appId, appId), isNull(installations.uninstalledAt), ...(which === 'sandbox' ? [eq(installations.isTestInstall, true)] : [])))
    .returning({ id: installations.id })
  for (const row of moved) await announce(context, context.executor, row.id)
  return moved.length
}

/** The pinned versions of the app's live installs (test installs apart). */
export async function pinnedVersionsOf (executor: Executor, appId: string): Promise<Array<{ apiVersion: string, isTestInstall: boolean, installs: number }>> {
  return await executor.select({ apiVersion: installations.apiVersion, isTestInstall: installations.isTestInstall, installs: sql<number>`count(*)::int` })
    .from(installations).where(and(eq(installations.appId, appId), isNull(installations.uninstalledAt)))
    .groupBy(installations.apiVersion, installations.isTestInstall).orderBy(installations.apiVersion)
}
