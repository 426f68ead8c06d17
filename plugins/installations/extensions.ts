import { and, asc, eq, inArray, isNull } from 'drizzle-orm'
import { installations } from '../../server/db/schema/index.ts'
import type { Executor } from '../../server/db/client.ts'
import type { ErrorItem } from '../../server/http-errors.ts'
import { validationItems } from '../../server/validation.ts'
import { settingsValidator } from '../apps/service.ts'

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

/** The active extensions of apps, as the apps service gives them. */
export type ExtensionsOf = (appIds: string[], kinds: Array<'block' | 'embed'>) => Promise<Array<{ appId: string, kind: string, key: string, definition: Record<string, unknown> }>>

/**
 * The active (not uninstalled) installations of a business with their apps' ACTIVE block and embed
 * extensions: what a storefront may show, and what a merchant may place. Optionally only some ids.
 */
export async function activeInstallations (executor: Executor, extensionsOf: ExtensionsOf, businessId: string, ids?: string[]): Promise<Map<string,
  ActiveInstallation>> {
  const filters = [eq(installations.businessId, businessId), isNull(installations.uninstalledAt)]
  if (ids !== undefined) {
    if (ids.length === 0) return new Map()
    filters.push(inArray(installations.id, ids))
  }
  const rows = await executor.select({ id: installations.id, appId: installations.appId, embedSettings: installations.embedSettings })
    .from(installations).where(and(...filters)).orderBy(asc(installations.installedAt), asc(installations.id))
  const extensions = await extensionsOf([...new Set(rows.map((row) => row.appId))], ['block', 'embed'])
  const result = new Map<string, ActiveInstallation>()
  for (const row of rows) {
    const entry: ActiveInstallation = { id: row.id, appId: row.appId, embedSettings: row.embedSettings, blocks: new Map(), embeds: new Map() }
    for (const extension of extensions) {
      if (extension.appId !== row.appId) continue
      if (extension.kind === 'block') entry.blocks.set(extension.key, extension.definition as unknown as BlockDefinition)
      if (extension.kind === 'embed') entry.embeds.set(extension.key, extension.definition as unknown as EmbedDefinition)
    }
    result.set(row.id, entry)
  }
  return result
}

/** An embed's configuration on an installation: disabled with the defaultConfig until the merchant sets it. */
export function embedState (installation: ActiveInstallation, embed: EmbedDefinition): { enabled: boolean, settings: Settings } {
  const stored = installation.embedSettings[embed.embedType]
  return stored === undefined ? { enabled: false, settings: embed.defaultConfig } : { enabled: stored.enabled, settings: stored.settings }
}

/** Problems of `settings` against an extension's settingsSchema, each prefixed with `path`; none without a schema but empty settings. */
export function settingsProblems (schema: Settings | undefined, settings: Settings, path: string): ErrorItem[] {
  if (schema === undefined) {
    return Object.keys(settings).length === 0 ? [] : [{ path, message: 'this extension has no settings', code: 'settings_none' }]
  }
  const validate = settingsValidator(schema)
  if (validate(settings)) return []
  return validationItems(validate.errors ?? []).map((item) => ({ path: `${path}${item.path}`, message: item.message, code: item.code }))
}
