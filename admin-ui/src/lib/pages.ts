/** Shapes of the merchant's pages and the theme editor's block picker (the API's answers). */
import type { BlockInstance, Page } from '../../../sdk/src/contract/resources.ts'
import type { SettingsSchema } from './admin-types.ts'

export type { BlockInstance, Page }

export interface AvailableBlock {
  installationId: string
  app: { id: string, name: string, iconUrl: string | null }
  blockType: string
  name: string
  description: string
  iconName: string | null
  category: string
  settingsSchema: SettingsSchema | null
  defaultConfig: Record<string, unknown>
}

/** A block id made in the browser, so a new block can get SERVICE_BLOCK_UPDATE before it is saved. */
export function newBlockId (): string {
  const bytes = crypto.getRandomValues(new Uint8Array(9))
  return `blk_${[...bytes].map((b) => b.toString(16).padStart(2, '0')).join('')}`
}

/** `list` with the item at `from` moved to `to`. */
export function moveItem<T> (list: T[], from: number, to: number): T[] {
  if (from === to || from < 0 || to < 0 || from >= list.length || to >= list.length) return list
  const next = [...list]
  const [item] = next.splice(from, 1)
  next.splice(to, 0, item)
  return next
}

export const slugify = (title: string): string => title.toLowerCase().normalize('NFKD').replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 100)
