import { and, asc, eq, inArray } from 'drizzle-orm'
import { apps, appExtensions } from '../../server/db/schema/index.ts'
import type { Executor } from '../../server/db/client.ts'
import { databaseNow } from '../../server/clock.ts'
import { badRequest } from './errors.ts'
import type { Manifest } from './manifest/schemas.ts'
import { syncExtensions } from './manifest/sync.ts'
import { describeProblems, measureSettingsPatterns, validateManifest } from './manifest/validate.ts'
import { assertEditable, ownedApp, type AppsContext } from './apps.ts'

/** The manifest's top-level settingsSchema, or null when the app declares none. */
export async function settingsSchemaOf (executor: Executor, appId: string): Promise<Record<string, unknown> | null> {
  const [app] = await executor.select({ manifest: apps.manifest }).from(apps).where(eq(apps.id, appId))
  const schema = app?.manifest?.settingsSchema
  return typeof schema === 'object' && schema !== null ? schema as Record<string, unknown> : null
}

/** Active extensions of these apps, by kind then key. */
export async function activeExtensionsOf (executor: Executor, appIds: string[], kinds: Array<'block' | 'embed' | 'hook' | 'admin_page'>) {
  if (appIds.length === 0) return []
  return await executor.select({
    appId: appExtensions.appId, kind: appExtensions.kind, key: appExtensions.key, definition: appExtensions.definition,
    createdAt: appExtensions.createdAt
  })
    .from(appExtensions)
    .where(and(inArray(appExtensions.appId, appIds), inArray(appExtensions.kind, kinds), eq(appExtensions.isActive, true)))
    .orderBy(asc(appExtensions.kind), asc(appExtensions.key))
}

/** Active admin pages per app, in the order they were first declared: the sidebar items of the admin panel. */
export async function adminPagesOf (executor: Executor, appIds: string[]) {
  const byApp = new Map<string, Array<{ pageId: string, title: string, iconName: string | null, renderUrl: string }>>()
  const rows = (await activeExtensionsOf(executor, appIds, ['admin_page'])).sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime())
  for (const row of rows) {
    const page = row.definition as { pageId: string, title: string, iconName?: string, renderUrl: string }
    byApp.set(row.appId, [...(byApp.get(row.appId) ?? []), {
      pageId: page.pageId, title: page.title, iconName: page.iconName ?? null,
      renderUrl: page.renderUrl
    }])
  }
  return byApp
}

/** Synced extensions of one of the developer's apps, active and deactivated. */
export async function extensionsOf (executor: Executor, developerId: string, appId: string) {
  const app = await ownedApp(executor, developerId, appId)
  return await executor.select().from(appExtensions).where(eq(appExtensions.appId, app.id)).orderBy(asc(appExtensions.kind), asc(appExtensions.key))
}

/** Validates everything, then syncs the extensions and stores the manifest in one transaction; dryRun writes nothing. */
export async function saveManifest ({ executor, rules }: AppsContext, developerId: string, appId: string, input: unknown, dryRun: boolean) {
  // timing the settings patterns takes up to tens of ms each: done first, between other requests, not in one block
  await measureSettingsPatterns(input)
  return await executor.transaction(async (tx) => {
    const app = await ownedApp(tx, developerId, appId, true)
    assertEditable(app)
    const { production, isPlatformOrigin } = rules
    const problems = validateManifest(input, { scopes: app.scopes, webhookUrl: app.webhookUrl, production, isPlatformOrigin })
    if (problems.length > 0) throw badRequest('manifest_invalid', describeProblems(problems), { errors: problems.map((p) => ({ in: 'body', ...p, code: 'manifest_invalid' })) })
    const manifest = input as Manifest
    const sync = await syncExtensions(tx, app.id, manifest, dryRun)
    if (!dryRun) await tx.update(apps).set({ manifest, updatedAt: databaseNow() }).where(eq(apps.id, app.id))
    return { appId: app.id, manifest, sync, dryRun }
  })
}
