/** Shapes of the merchant installation endpoints, as the admin screens use them (the contract's). */
import type { AdminPageLink, ListedInstallation, PendingInstallation, InstallationList } from '../../../sdk/src/contract/resources.ts'

export type { AdminPageLink, PendingInstallation }
/** An installed app (status ACTIVE). */
export type InstalledApp = ListedInstallation
/** One item of GET /merchant/installations: installed, or approved and being finished by the app. */
export type InstallationItem = InstallationList['data'][number]
export const isInstalled = (item: InstallationItem): item is InstalledApp => item.status === 'ACTIVE'

export interface JsonSchemaProperty {
  type?: string
  format?: string
  title?: string
  description?: string
  enum?: unknown[]
  minimum?: number
  maximum?: number
  exclusiveMinimum?: number
  exclusiveMaximum?: number
  minLength?: number
  maxLength?: number
  pattern?: string
  default?: unknown
}

export interface SettingsSchema { type?: string, properties?: Record<string, JsonSchemaProperty>, required?: string[] }

/** One part of a previous setup (GET /merchant/installations/:id/previous-setup): restorable, or skipped with why. */
export interface SetupItem {
  kind: 'settings' | 'embed' | 'block'
  handle: string | null
  name: string
  enabled: boolean | null
  page: { id: string, slug: string, title: string } | null
  position: number | null
  skipped: { code: string, message: string } | null
}

export interface PreviousSetup {
  installationId: string
  status: 'NONE' | 'OFFERED' | 'RESTORED' | 'DISMISSED'
  previousInstallationId: string | null
  uninstalledAt: string | null
  items: SetupItem[]
}
