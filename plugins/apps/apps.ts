import { and, desc, eq } from 'drizzle-orm'
import { apps } from '../../server/db/schema/index.ts'
import type { Executor, Tx } from '../../server/db/client.ts'
import { newId } from '../../server/db/ids.ts'
import { countRows } from '../../server/db/rows.ts'
import { pageWindow } from '../../server/schemas.ts'
import { databaseNow } from '../../server/clock.ts'
import { DEFAULT_SIGNATURE_SCHEME } from '../../sdk/src/contract/events.ts'
import { conflict, fieldError, notFound } from './errors.ts'
import { hashSecret, newClientId, newClientSecret } from './credentials.ts'
import { checkEvents, checkUrls, type UrlRules } from './url-checks.ts'
import { pruneMedia } from './media-store.ts'
import { recordVersion } from './review-thread.ts'
import { changesForReview, type AppRow } from './app-row.ts'
import { checkPricing, samePricing } from './pricing.ts'
import type { Pricing } from '../../sdk/src/contract/billing.ts'
import type { CreateApp, UpdateApp } from './schemas.ts'

/** What the functions that check an app's fields run against: the executor, the platform's URL rules and its billing currency. */
export interface AppsContext { executor: Executor, rules: UrlRules, billingCurrency: string }

/** Run inside the transaction that deletes a draft app, before its rows go (installations: end its test installs). */
export type AppDeletingListener = (tx: Tx, app: AppRow) => Promise<void>

/** The developer's own app, optionally locked (select … for update) for the caller's transaction; another's is a 404. */
export async function ownedApp (executor: Executor, developerId: string, appId: string, lock = false): Promise<AppRow> {
  const query = executor.select().from(apps).where(and(eq(apps.id, appId), eq(apps.developerId, developerId))).limit(1)
  const [row] = lock ? await query.for('update') : await query
  if (row === undefined) throw notFound('app_not_found', 'App')
  return row
}

export function assertEditable (app: AppRow): void {
  if (app.status === 'PENDING_REVIEW') throw conflict('app_pending_review', 'The app is pending review and cannot be edited until the review ends')
}

/** The body's `signatureScheme` (app-platform.json's name) is webhookSignatureScheme; the schema lets a body send only one. */
function oneSchemeName<T extends { signatureScheme?: CreateApp['signatureScheme'], webhookSignatureScheme?: CreateApp['webhookSignatureScheme'] }> (
  { signatureScheme, ...fields }: T): Omit<T, 'signatureScheme'> {
  return signatureScheme === undefined ? fields : { ...fields, webhookSignatureScheme: signatureScheme }
}

export async function createApp (context: AppsContext, developerId: string, body: CreateApp) {
  const { executor, rules } = context
  const input = oneSchemeName(body)
  if (input.pricing !== undefined) checkPricing(input.pricing, context.billingCurrency)
  await checkUrls(input, rules)
  checkEvents(input.webhookEvents ?? [], input.scopes)
  const clientSecret = newClientSecret()
  const [row] = await executor.insert(apps).values({
    id: newId('app'),
    developerId,
    clientId: newClientId(),
    clientSecretHash: hashSecret(clientSecret),
    name: input.name.trim(),
    slug: input.slug,
    description: input.description.trim(),
    category: input.category,
    scopes: input.scopes,
    pricing: input.pricing ?? { plans: [] },
    redirectUrl: input.redirectUrl,
    appUrl: input.appUrl ?? null,
    webhookUrl: input.webhookUrl ?? null,
    webhookEvents: input.webhookEvents ?? [],
    webhookSignatureScheme: input.webhookSignatureScheme ?? DEFAULT_SIGNATURE_SCHEME,
    apiVersion: input.apiVersion ?? null,
    screenshots: input.screenshots ?? [],
    version: input.version ?? '1.0.0'
  }).onConflictDoNothing({ target: apps.slug }).returning()
  if (row === undefined) throw conflict('app_slug_taken', `The slug "${input.slug}" is taken`)
  return { app: row, clientSecret }
}

export async function listApps (executor: Executor, developerId: string, query: { page?: number, limit?: number }) {
  const { page, limit, offset } = pageWindow(query)
  const where = eq(apps.developerId, developerId)
  const [rows, total] = await Promise.all([
    executor.select().from(apps).where(where).orderBy(desc(apps.createdAt), desc(apps.id)).limit(limit).offset(offset),
    countRows(executor, apps, where)
  ])
  return { rows, total, page, limit }
}

/**
 * Edits apply at once, except on a published app where added scopes or a changed pricing need a review:
 * the status goes back to DRAFT (to be submitted) while the listing keeps approvedScopes and approvedPricing.
 */
export async function updateApp ({ executor, rules, billingCurrency }: AppsContext, developerId: string, appId: string, body: UpdateApp): Promise<AppRow> {
  const patch = oneSchemeName(body)
  if (patch.slug !== undefined) throw fieldError('app_slug_immutable', '/slug', 'is immutable after creation')
  if (patch.pricing !== undefined) checkPricing(patch.pricing, billingCurrency)
  await checkUrls(patch, rules)
  return await executor.transaction(async (tx) => {
    const app = await ownedApp(tx, developerId, appId, true)
    assertEditable(app)
    const scopes = patch.scopes ?? app.scopes
    checkEvents(patch.webhookEvents ?? app.webhookEvents, scopes)
    const { slug: _slug, ...fields } = patch
    const changes = Object.entries(fields).filter(([key, value]) => key === 'pricing'
      ? !samePricing(value as Pricing, app.pricing)
      : JSON.stringify(value) !== JSON.stringify(app[key as keyof AppRow])).map(([key]) => key)
    const pending = changesForReview({ ...app, scopes, pricing: patch.pricing ?? app.pricing })
    const status = app.isPublished ? (pending.length > 0 ? 'DRAFT' : 'APPROVED') : app.status
    const [updated] = await tx.update(apps).set({ ...fields, status, updatedAt: databaseNow() }).where(eq(apps.id, app.id)).returning()
    if (app.isPublished && status === 'APPROVED' && changes.length > 0) await recordVersion(tx, updated, 'UPDATED', developerId, changes)
    if (changes.includes('iconUrl') || changes.includes('screenshots')) await pruneMedia(tx, updated)
    return updated
  })
}

/**
 * Deletes a draft that never reached merchants: never published and not under review. The listeners
 * end its test installs first; the app's rows (manifest extensions, history, replies, media, OAuth
 * codes, installations) go with it by their foreign keys.
 */
export async function deleteDraft (executor: Executor, developerId: string, appId: string, listeners: AppDeletingListener[]): Promise<AppRow> {
  return await executor.transaction(async (tx) => {
    const app = await ownedApp(tx, developerId, appId, true)
    if (app.isPublished) throw conflict('app_published', 'A published app cannot be deleted: merchants may have installed it')
    if (app.status === 'PENDING_REVIEW') throw conflict('app_pending_review', 'The app is pending review: wait for the decision before deleting it')
    for (const listener of listeners) await listener(tx, app)
    await tx.delete(apps).where(eq(apps.id, app.id))
    return app
  })
}
