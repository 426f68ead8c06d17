import type { apps } from '../../server/db/schema/index.ts'
import type { ApiVersion } from '../../sdk/src/contract/api-versions.ts'
import type { AppView } from './schemas.ts'

export type AppRow = typeof apps.$inferSelect

export function publicApp (row: AppRow): AppView {
  return {
    id: row.id, clientId: row.clientId, name: row.name, slug: row.slug, description: row.description, category: row.category,
    scopes: row.scopes, approvedScopes: row.approvedScopes, redirectUrl: row.redirectUrl, appUrl: row.appUrl, webhookUrl: row.webhookUrl,
    webhookEvents: row.webhookEvents, webhookSignatureScheme: row.webhookSignatureScheme, apiVersion: row.apiVersion as ApiVersion | null,
    iconUrl: row.iconUrl, screenshots: row.screenshots, version: row.version, status: row.status,
    isPublished: row.isPublished, reviewNotes: row.reviewNotes, changesRequested: row.changesRequested, manifest: row.manifest,
    createdAt: row.createdAt.toISOString(), updatedAt: row.updatedAt.toISOString()
  }
}

/** Scopes requested but not approved yet: non-empty means the change needs a review. */
export const addedScopes = (app: Pick<AppRow, 'scopes' | 'approvedScopes'>): string[] => app.scopes.filter((s) => !app.approvedScopes.includes(s))
