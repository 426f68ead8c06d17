import { and, asc, desc, eq, gt, inArray, isNull, sql } from 'drizzle-orm'
import { installations } from '../../server/db/schema/index.ts'
import type { Executor } from '../../server/db/client.ts'
import { notFound } from './errors.ts'
import type { InstallationRow, InstallationsContext, UnexchangedConsentSource } from './context.ts'

/** The live installation of the app on the business, locked for the caller's transaction. */
export async function activeFor (executor: Executor, appId: string, businessId: string): Promise<InstallationRow | null> {
  const [row] = await executor.select().from(installations)
    .where(and(eq(installations.appId, appId), eq(installations.businessId, businessId), isNull(installations.uninstalledAt)))
    .limit(1).for('update')
  return row ?? null
}

export async function findByTokenHash (executor: Executor, tokenHash: string): Promise<InstallationRow | null> {
  const [row] = await executor.select().from(installations)
    .where(and(eq(installations.accessTokenHash, tokenHash), isNull(installations.uninstalledAt))).limit(1)
  return row ?? null
}

/** An active installation of this business; another business's is a 404. */
export async function getForBusiness (executor: Executor, businessId: string, installationId: string, lock = false): Promise<InstallationRow> {
  const query = executor.select().from(installations)
    .where(and(eq(installations.id, installationId), eq(installations.businessId, businessId), isNull(installations.uninstalledAt))).limit(1)
  const [row] = lock ? await query.for('update') : await query
  if (row === undefined) throw notFound('installation_not_found', 'Installation')
  return row
}

export async function testInstallOf (executor: Executor, appId: string, businessId: string): Promise<InstallationRow | null> {
  const [row] = await executor.select().from(installations)
    .where(and(eq(installations.appId, appId), eq(installations.businessId, businessId), isNull(installations.uninstalledAt))).limit(1)
  return row ?? null
}

export async function listForBusiness ({ executor, apps }: InstallationsContext, businessId: string) {
  const rows = await executor.select().from(installations)
    .where(and(eq(installations.businessId, businessId), isNull(installations.uninstalledAt)))
    .orderBy(desc(installations.installedAt))
  const byId = new Map((await apps.findByIds(rows.map((row) => row.appId))).map((app) => [app.id, app]))
  return rows.flatMap((installation) => {
    const app = byId.get(installation.appId)
    if (app === undefined) return []
    return [{ installation, app: { id: app.id, name: app.name, slug: app.slug, iconUrl: app.iconUrl, appUrl: app.appUrl, manifest: app.manifest } }]
  })
}

/** Approved installs the app has not finished, for apps not installed on the business. */
export async function unfinishedFor ({ apps, consentSources }: InstallationsContext, businessId: string, installedAppIds: string[]) {
  const consents = (await Promise.all(consentSources.map(async (source) => await source(businessId)))).flat()
    .filter((consent) => !installedAppIds.includes(consent.appId))
  const byId = new Map((await apps.findByIds(consents.map((c) => c.appId))).map((app) => [app.id, app]))
  return consents.flatMap((consent) => {
    const app = byId.get(consent.appId)
    return app === undefined ? [] : [{ consent, app }]
  })
}

/** The oauth capability registers where unexchanged consents are found. */
export function addConsentSource ({ consentSources }: InstallationsContext, source: UnexchangedConsentSource): void {
  consentSources.push(source)
}

/** Live (not test, not uninstalled) installs per app, for the marketplace. */
export async function liveInstallCounts (executor: Executor, appIds: string[]): Promise<Map<string, number>> {
  if (appIds.length === 0) return new Map()
  const rows = await executor.select({ appId: installations.appId, n: sql<number>`count(*)::int` }).from(installations)
    .where(and(inArray(installations.appId, appIds), eq(installations.isTestInstall, false), isNull(installations.uninstalledAt)))
    .groupBy(installations.appId)
  return new Map(rows.map((row) => [row.appId, row.n]))
}

/** The business's real (not test) installations of the app, installed and uninstalled times, oldest first: what app reviews ask. */
export async function realInstallsOf (executor: Executor, appId: string, businessId: string)
  : Promise<Array<{ installedAt: Date, uninstalledAt: Date | null }>> {
  return await executor.select({ installedAt: installations.installedAt, uninstalledAt: installations.uninstalledAt }).from(installations)
    .where(and(eq(installations.appId, appId), eq(installations.businessId, businessId), eq(installations.isTestInstall, false)))
    .orderBy(asc(installations.installedAt))
}

/** True when the app was installed again on the business after `since` (a pending data erasure is void). */
export async function reinstalledSince (executor: Executor, appId: string, businessId: string, since: Date): Promise<string | null> {
  const [row] = await executor.select({ id: installations.id }).from(installations)
    .where(and(eq(installations.appId, appId), eq(installations.businessId, businessId), isNull(installations.uninstalledAt),
      gt(installations.installedAt, since)))
    .limit(1)
  return row?.id ?? null
}
