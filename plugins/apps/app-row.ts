import type { apps } from '../../server/db/schema/index.ts'
import type { ApiVersion } from '../../sdk/src/contract/api-versions.ts'
import type { AppView } from './schemas.ts'
import { samePricing } from './pricing.ts'

export type AppRow = typeof apps.$inferSelect

/** The app as its developer (and a reviewer) sees it; `billingCurrency` is the platform's, which every plan's amounts must be in. */
export function publicApp (row: AppRow, billingCurrency: string): AppView {
  return {
    id: row.id, clientId: row.clientId, name: row.name, slug: row.slug, description: row.description, category: row.category,
    scopes: row.scopes, approvedScopes: row.approvedScopes, pricing: row.pricing, approvedPricing: row.approvedPricing, billingCurrency,
    redirectUrl: row.redirectUrl, appUrl: row.appUrl, webhookUrl: row.webhookUrl,
    webhookEvents: row.webhookEvents, webhookSignatureScheme: row.webhookSignatureScheme, apiVersion: row.apiVersion as ApiVersion | null,
    iconUrl: row.iconUrl, screenshots: row.screenshots, version: row.version, status: row.status,
    isPublished: row.isPublished, reviewNotes: row.reviewNotes, changesRequested: row.changesRequested, manifest: row.manifest,
    createdAt: row.createdAt.toISOString(), updatedAt: row.updatedAt.toISOString()
  }
}

/** Scopes requested but not approved yet: non-empty means the change needs a review. */
export const addedScopes = (app: Pick<AppRow, 'scopes' | 'approvedScopes'>): string[] => app.scopes.filter((s) => !app.approvedScopes.includes(s))

/** The pricing differs from the approved one (DESIGN §23): on a published app the change needs a review. */
export const pricingChanged = (app: Pick<AppRow, 'pricing' | 'approvedPricing'>): boolean => !samePricing(app.pricing, app.approvedPricing)

/** What a published app's edit leaves for a review: added scopes, a changed pricing. Non-empty: back to DRAFT until approved. */
export function changesForReview (app: Pick<AppRow, 'scopes' | 'approvedScopes' | 'pricing' | 'approvedPricing'>): Array<'scopes' | 'pricing'> {
  return [...(addedScopes(app).length > 0 ? ['scopes' as const] : []), ...(pricingChanged(app) ? ['pricing' as const] : [])]
}
