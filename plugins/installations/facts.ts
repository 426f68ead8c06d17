import { and, eq, inArray, sql } from 'drizzle-orm'
import { installations } from '../../server/db/schema/index.ts'
import type { Executor } from '../../server/db/client.ts'

/**
 * What capabilities that installations depends on ask of it (webhooks' console pages, the analytics
 * counters), through the interfaces they define; installations provides them at its boot.
 */

/** The given installations that exist (uninstalled ones included): a test install? still installed? */
export async function factsOf (executor: Executor, ids: string[]): Promise<Map<string, { isTestInstall: boolean, active: boolean }>> {
  if (ids.length === 0) return new Map()
  const rows = await executor.select({ id: installations.id, isTestInstall: installations.isTestInstall, uninstalledAt: installations.uninstalledAt })
    .from(installations).where(inArray(installations.id, ids))
  return new Map(rows.map((row) => [row.id, { isTestInstall: row.isTestInstall, active: row.uninstalledAt === null }]))
}

/** An app's installations ever made and still installed, test installs (`sandbox`) or live ones. */
export async function installCountsOf (executor: Executor, appId: string, sandbox: boolean): Promise<{ total: number, active: number }> {
  const [row] = await executor.select({
    total: sql<number>`count(*)::int`,
    active: sql<number>`(count(*) filter (where ${installations.uninstalledAt} is null))::int`
  }).from(installations).where(and(eq(installations.appId, appId), eq(installations.isTestInstall, sandbox)))
  return { total: Number(row?.total ?? 0), active: Number(row?.active ?? 0) }
}
