import type { FastifyInstance } from 'fastify'
import type { AuthService } from '../auth/index.ts'
import type { Guards } from '../auth/guards.ts'
import type { Executor } from '../../server/db/client.ts'
import { bindExecutor, bindTo } from '../../server/db/bind.ts'
import { assertEditable, createApp, deleteDraft, listApps, ownedApp, updateApp, type AppDeletingListener } from './apps.ts'
import { publicApp, type AppRow } from './app-row.ts'
import { findByClientId, regenerateSecret, verifyClientCredentials } from './client-secrets.ts'
import { activeExtensionsOf, adminPagesOf, extensionsOf, saveManifest, settingsSchemaOf } from './extensions.ts'
import { allPublished, findById, findByIds, listPublished, publishedBySlug } from './listing.ts'
import { addMedia, mediaById } from './media-store.ts'
import { approve, reject, reviewQueue, submit, versions, type AppApprovedListener } from './review.ts'
import { approvedBaseline, history, reply } from './review-thread.ts'
import type { UrlRules } from './url-checks.ts'

// What other capabilities may use without reaching into the apps' files
export { settingsValidator } from './manifest/validate.ts'
export { addedScopes, pricingChanged, type AppRow } from './app-row.ts'
export { listedPricing } from './pricing.ts'
export type { AppDeletingListener } from './apps.ts'
export type { AppApprovedListener } from './review.ts'

/** Told after a submission for review committed (app checks start a run); must not throw. */
export type AppSubmittedListener = (app: AppRow, by: { userId: string, businessId: string | null }) => Promise<void>

/**
 * The apps service over the database, or over a caller's transaction with `apps.in(tx)` (as commerce
 * and webhooks do): a developer's app that is not theirs is a 404. Edits that take URLs check them by `rules`.
 */
export function createAppsService (executor: Executor, rules: UrlRules, billingCurrency: string) {
  return {
    in: (tx: Executor) => createAppsService(tx, rules, billingCurrency),
    assertEditable,
    /** The app as the portal and the review answer it, with the platform's billing currency. */
    view: (row: AppRow) => publicApp(row, billingCurrency),
    ...bindTo({ executor, rules, billingCurrency }, { create: createApp, update: updateApp, saveManifest }),
    ...bindExecutor(executor, {
      ownedApp, list: listApps, deleteDraft,
      submit, versions, reviewQueue, approve, reject,
      regenerateSecret, verifyClientCredentials, findByClientId,
      findById, findByIds, listPublished, allPublished, publishedBySlug,
      settingsSchemaOf, activeExtensionsOf, adminPagesOf, extensionsOf,
      addMedia, mediaById
    }),
    /** The review's history, reply thread and approved baseline (the caller checks who may see the app). */
    reviewThread: bindExecutor(executor, { history, reply, approvedBaseline })
  }
}

export type AppsService = ReturnType<typeof createAppsService>

/**
 * Apps' port (server/capability.ts): ownership, edits, credentials, review, manifest, media (the only
 * writer of the apps' tables), and the listeners the others add at their boot.
 */
export interface Apps extends AppsService {
  /** Run inside the approval transaction (installations: convert test installs, flag re-consent). */
  onAppApproved: AppApprovedListener[]
  /** Run after a submission for review (app checks). */
  onAppSubmitted: AppSubmittedListener[]
  /** Run inside the deletion of a draft app (installations). */
  onAppDeleting: AppDeletingListener[]
}

/** What apps need: the authors' names the review record shows (accounts), and the session guards. */
export interface AppsNeeds {
  auth: Pick<AuthService, 'namesOf'>
  guards: Pick<Guards, 'requireRole'>
}

/** What the apps' route files are registered with. */
export interface AppsRouteOptions extends AppsNeeds { apps: Apps }

export function startApps (fastify: FastifyInstance): Apps {
  const isPlatformOrigin = (url: string) => fastify.origins.isPlatformOrigin(url)
  return {
    ...createAppsService(fastify.db, { production: fastify.config.production, outbound: fastify.outbound, isPlatformOrigin }, fastify.config.billingCurrency),
    onAppApproved: [],
    onAppSubmitted: [],
    onAppDeleting: []
  }
}
