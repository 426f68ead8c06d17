import { and, asc, eq, inArray, isNull } from 'drizzle-orm'
import { appExtensions, installations } from '../../server/db/schema/index.ts'
import type { Executor } from '../../server/db/client.ts'
import { settingsValidator } from '../apps/manifest/validate.ts'

export type Settings = Record<string, unknown>

/** A block definition as the manifest sync stores it (defaultConfig always present). */
export interface BlockDefinition { blockType: string, name: string, renderUrl: string, settingsSchema?: Settings, defaultConfig: Settings }
export interface EmbedDefinition {
  embedType: string
  name: string
  description?: string
  kind: 'GLOBAL_SCRIPT' | 'FLOATING_WIDGET'
  position: 'head' | 'body_end' | 'bottom_right' | 'bottom_left'
  scriptUrl?: string
  renderUrl?: string
  settingsSchema?: Settings
  defaultConfig: Settings
}

export interface ActiveInstallation {
  id: string
  appId: string
  embedSettings: Record<string, { enabled: boolean, settings: Settings }>
  blocks: Map<string, BlockDefinition>
  embeds: Map<string, EmbedDefinition>
}

/**
 * The active (not uninstalled) installations of a business with their apps' ACTIVE block and embed
 * extensions: what a storefront may show, and what a merchant may place. Optionally only some ids.
 */
export async function activeInstallations (executor: Executor, businessId: string, ids?: string[]): Promise<Map<string, ActiveInstallation>> {
  const filters = [eq(installations.businessId, businessId), isNull(installations.uninstalledAt)]
  if (ids !== undefined) {
    if (ids.length === 0) return new Map()
    filters.push(inArray(installations.id, ids))
  }
  const rows = await executor.select({
    id: installations.id, appId: installations.appId, embedSettings: installations.embedSettings,
    kind: appExtensions.kind, key: appExtensions.key, definition: appExtensions.definition
  }).from(installations)
    .leftJoin(appExtensions, and(eq(appExtensions.appId, installations.appId), eq(appExtensions.isActive, true), inArray(appExtensions.kind, ['block', 'embed'])))
    .where(and(...filters))
    .orderBy(asc(installations.installedAt), asc(installations.id), asc(appExtensions.kind), asc(appExtensions.key))

  const result = new Map<string, ActiveInstallation>()
  for (const row of rows) {
    let entry = result.get(row.id)
    if (entry === undefined) {
      entry = { id: row.id, appId: row.appId, embedSettings: row.embedSettings, blocks: new Map(), embeds: new Map() }
      result.set(row.id, entry)
    }
    if (row.kind === 'block' && row.key !== null) entry.blocks.set(row.key, row.definition as unknown as BlockDefinition)
    if (row.kind === 'embed' && row.key !== null) entry.embeds.set(row.key, row.definition as unknown as EmbedDefinition)
  }
  return result
}

/** An embed's configuration on an installation: disabled with the defaultConfig until the merchant sets it. */
export function embedState (installation: ActiveInstallation, embed: EmbedDefinition): { enabled: boolean, settings: Settings } {
  const stored = installation.embedSettings[embed.embedType]
  return stored === undefined ? { enabled: false, settings: embed.defaultConfig } : { enabled: stored.enabled, settings: stored.settings }
}

/** Problems of `settings` against an extension's settingsSchema, each prefixed with `path`; none without a schema but empty settings. */
export function settingsProblems (schema: Settings | undefined, settings: Settings, path: string): string[] {
  if (schema === undefined) {
    return Object.keys(settings).length === 0 ? [] : [`${path}: this extension has no settings`]
  }
  const validate = settingsValidator(schema)
  if (validate(settings)) return []
  return (validate.errors ?? []).map((error) => {
    const where = `${path}${error.instancePath}`
    return error.keyword === 'additionalProperties'
      ? `${where}: unknown property "${(error.params as { additionalProperty: string }).additionalProperty}"`
      : `${where}: ${error.message ?? 'is invalid'}`
  })
}
