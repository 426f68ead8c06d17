import { and, eq } from 'drizzle-orm'
import { isDeepStrictEqual } from 'node:util'
import { appExtensions, type ExtensionKind } from '../../../server/db/schema/index.ts'
import type { Executor } from '../../../server/db/client.ts'
import { newId } from '../../../server/db/ids.ts'
import { HOOK_DEFAULTS, type Manifest, type SyncResult } from './schemas.ts'
import { databaseNow } from '../../../server/clock.ts'

interface Desired { kind: ExtensionKind, key: string, definition: Record<string, unknown> }

/** The extensions a manifest declares, keyed as the spec says (blockType, embedType, hookPoint, pageId). */
export function declaredExtensions (manifest: Manifest): Desired[] {
  return [
    ...(manifest.blocks ?? []).map((b) => ({ kind: 'block' as const, key: b.blockType, definition: { defaultConfig: {}, ...b } })),
    ...(manifest.embeds ?? []).map((e) => ({ kind: 'embed' as const, key: e.embedType, definition: { defaultConfig: {}, ...e } })),
    ...(manifest.hooks ?? []).map((h) => ({
      kind: 'hook' as const,
      key: h.hookPoint,
      definition: { timeout: HOOK_DEFAULTS.timeout, priority: HOOK_DEFAULTS.priority, failurePolicy: 'open', ...h }
    })),
    ...(manifest.adminPages ?? []).map((p) => ({ kind: 'admin_page' as const, key: p.pageId, definition: { ...p } }))
  ]
}

/**
 * New key → created active; same key → updated in place (re-activated if it was inactive);
 * missing key → deactivated, kept with its merchant data. With dryRun nothing is written.
 */
export async function syncExtensions (executor: Executor, appId: string, manifest: Manifest, dryRun = false): Promise<SyncResult> {
  const existing = await executor.select().from(appExtensions).where(eq(appExtensions.appId, appId))
  const byKey = new Map(existing.map((row) => [`${row.kind}:${row.key}`, row]))
  const result: SyncResult = { created: [], updated: [], deactivated: [], reactivated: [] }
  const now = databaseNow()
  const seen = new Set<string>()

  for (const item of declaredExtensions(manifest)) {
    const id = `${item.kind}:${item.key}`
    seen.add(id)
    const ref = { kind: item.kind, key: item.key }
    const row = byKey.get(id)
    if (row === undefined) {
      result.created.push(ref)
      if (!dryRun) await executor.insert(appExtensions).values({ id: newId('ext'), appId, kind: item.kind, key: item.key, definition: item.definition })
      continue
    }
    if (row.isActive && isDeepStrictEqual(row.definition, item.definition)) continue
    result.updated.push(ref)
    if (!row.isActive) result.reactivated.push(ref)
    if (!dryRun) await executor.update(appExtensions).set({ definition: item.definition, isActive: true, updatedAt: now }).where(eq(appExtensions.id, row.id))
  }

  for (const row of existing) {
    if (!row.isActive || seen.has(`${row.kind}:${row.key}`)) continue
    result.deactivated.push({ kind: row.kind, key: row.key })
    if (!dryRun) await executor.update(appExtensions).set({ isActive: false, updatedAt: now }).where(eq(appExtensions.id, row.id))
  }
  return result
}

/** Active extensions of one kind for an app, for the plugins that render or call them. */
export async function activeExtensions (executor: Executor, appId: string, kind: ExtensionKind) {
  return await executor.select().from(appExtensions)
    .where(and(eq(appExtensions.appId, appId), eq(appExtensions.kind, kind), eq(appExtensions.isActive, true)))
}
