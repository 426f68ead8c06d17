/** Shapes of the merchant installation endpoints, as the admin screens use them. */
export interface AdminPageLink { pageId: string, title: string, iconName: string | null, renderUrl: string }

export interface InstalledApp {
  installationId: string
  appId: string
  businessId: string
  isTestInstall: boolean
  needsReConsent: boolean
  grantedScopes: string[]
  pendingScopes: string[]
  installedAt: string
  app: { id: string, name: string, slug: string, iconUrl: string | null }
  hasSettings: boolean
  adminPages: AdminPageLink[]
}

export interface JsonSchemaProperty {
  type?: string
  format?: string
  title?: string
  description?: string
  enum?: unknown[]
  minimum?: number
  maximum?: number
  default?: unknown
}

export interface SettingsSchema { type?: string, properties?: Record<string, JsonSchemaProperty>, required?: string[] }
