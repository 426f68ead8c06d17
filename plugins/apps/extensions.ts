import { and, asc, eq, inArray } from 'drizzle-orm'
import { apps, appExtensions } from '../../server/db/schema/index.ts'
import type { Executor } from '../../server/db/client.ts'
import { databaseNow } from '../../server/clock.ts'
import { badRequest } from './errors.ts'
import type { Manifest } from './manifest/schemas.ts'
import { syncExtensions } from './manifest/sync.ts'
import { describeProblems, measureSettingsPatterns, validateManifest, type Problem } from './manifest/validate.ts'
import { outboundUrlProblem, type OutboundPolicy } from '../../server/url-policy.ts'
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

/** The manifest's URLs a browser loads (block, widget and admin page frames, global scripts), with their JSON paths. */
function frameUrls (input: unknown): Array<{ path: string, value: string }> {
  const urls: Array<{ path: string, value: string }> = []
  const manifest = typeof input === 'object' && input !== null ? input as Record<string, unknown> : {}
  for (const [section, fields] of [['blocks', ['renderUrl']], ['embeds', ['scriptUrl', 'renderUrl']], ['adminPages', ['renderUrl']]] as const) {
    const items = manifest[section]
    if (!Array.isArray(items)) continue
    for (const [i, item] of items.entries()) {
      for (const field of fields) {
        const value = typeof item === 'object' && item !== null ? (item as Record<string, unknown>)[field] : undefined
        if (typeof value === 'string' && value.startsWith('https:')) urls.push({ path: `/${section}/${i}/${field}`, value })
      }
    }
  }
  return urls
}

/**
 * In production the merchant's and customers' browsers must not be sent to a private or special-use
 * address (a router's admin page, a cloud metadata endpoint) by an app's frame or script: the same
 * rule as the webhook URL. Non-https URLs are already refused by the manifest's own rules.
 */
async function frameUrlProblems (input: unknown, outbound: OutboundPolicy): Promise<Problem[]> {
  if (!outbound.production) return []
  const problems = await Promise.all(frameUrls(input).map(async ({ path, value }) => {
    const problem = await outboundUrlProblem(value, outbound)
    return problem === null ? null : { path, message: problem }
  }))
  return problems.filter((problem): problem is Problem => problem !== null)
}

/** Validates everything, then syncs the extensions and stores the manifest in one transaction; dryRun writes nothing. */
export async function saveManifest ({ executor, rules }: AppsContext, developerId: string, appId: string, input: unknown, dryRun: boolean) {
  // timing the settings patterns takes up to tens of ms each: done first, between other requests, not in one block
  await measureSettingsPatterns(input)
  const addressProblems = await frameUrlProblems(input, rules.outbound)
  return await executor.transaction(async (tx) => {
    const app = await ownedApp(tx, developerId, appId, true)
    assertEditable(app)
    const { production, isPlatformOrigin } = rules
    const problems = [...validateManifest(input, { scopes: app.scopes, webhookUrl: app.webhookUrl, production, isPlatformOrigin }), ...addressProblems]
    if (problems.length > 0) throw badRequest('manifest_invalid', describeProblems(problems), { errors: problems.map((p) => ({ in: 'body', ...p, code: 'manifest_invalid' })) })
    const manifest = input as Manifest
    const sync = await syncExtensions(tx, app.id, manifest, dryRun)
    if (!dryRun) await tx.update(apps).set({ manifest, updatedAt: databaseNow() }).where(eq(apps.id, app.id))
    return { appId: app.id, manifest, sync, dryRun }
  })
}
