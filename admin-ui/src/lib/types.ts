/** Shapes of the API answers the screens read (openapi/openapi.json). */

import { APP_CATEGORIES, type AppCategory } from '../../../sdk/src/contract/categories.ts'
import { SUBSCRIBABLE_EVENTS } from '../../../sdk/src/contract/events.ts'
import type { AppVersion as ContractAppVersion, ListEnvelope, ReviewEvent as ContractReviewEvent } from '../../../sdk/src/contract/resources.ts'
import type { App, AppListing, AppRating as ContractAppRating, AppReview as ContractAppReview } from '../../../sdk/src/contract/apps.ts'

// the contract's lists (sdk/src/contract), under the names the screens use
export { SCOPES, describeScope } from '../../../sdk/src/contract/scopes.ts'
export const CATEGORIES = APP_CATEGORIES
export type Category = AppCategory
/** The events an app's webhook can subscribe to. */
export const WEBHOOK_EVENTS = SUBSCRIBABLE_EVENTS

export type AppStatus = App['status']

/** The list envelope of every paginated endpoint (the contract's). */
export type Envelope<T> = ListEnvelope<T>

/** The developer's (and reviewer's) view of an app: never the secret (the contract's App). */
export type DeveloperApp = App

export interface ReviewedApp extends DeveloperApp { addedScopes: string[], pricingChanged: boolean }

export interface CreatedApp { app: DeveloperApp, clientSecret: string }

/** A published app as the marketplace lists it (the contract's AppListing). */
export type MarketplaceApp = AppListing

export type AppVersion = ContractAppVersion

/** An app's rating from businesses' visible reviews (DESIGN §24): average (one decimal, null without reviews), count, per star. */
export type AppRating = ContractAppRating

/** A business's review of an app, as the marketplace shows it, with the developer's answer. */
export type AppReview = ContractAppReview

/** The same review as its business, the app's developer and a reviewer see it: with a reviewer's hiding. */
export type ManagedAppReview = AppReview & { hidden: { at: string, reason: string } | null }

/** In the developer's and the reviewer's lists: with the reviewing business's name (null once it is deleted). */
export type AppReviewWithBusiness = ManagedAppReview & { businessName: string | null }

/** One entry of a review's record (GET /developer/apps/:appId/review-history, GET /review/apps/:appId/history). */
export type ReviewEvent = ContractReviewEvent

/** GET /review/apps/:appId/diff: the listing and manifest as approved last, and as submitted. */
export interface ReviewDiff {
  baseline: { version: string, approvedAt: string, snapshot: Record<string, unknown> } | null
  current: Record<string, unknown>
}

export interface SyncItem { kind: string, key: string }
export interface ManifestResult {
  manifest: unknown
  dryRun: boolean
  sync: { created: SyncItem[], updated: SyncItem[], deactivated: SyncItem[], reactivated: SyncItem[] }
}

export interface TestInstall { installationId: string, accessToken: string, webhookSecret: string, businessId: string, isTestInstall: true }

export interface TestStatus {
  installed: boolean
  installationId: string | null
  businessId: string
  /** The App URL with the sandbox: the app starts OAuth and receives the credentials (DESIGN §22); null without an App URL. */
  installUrl: string | null
  isTestInstall: boolean | null
  needsReConsent: boolean | null
  grantedScopes: string[]
  installedAt: string | null
  webhooks: Array<{ id: string, url: string, events: string[], isActive: boolean }>
  recentDeliveries: Array<{ id: string, event: string, status: string, attempts: number, lastStatusCode: number | null, createdAt: string }>
}
