import fp from 'fastify-plugin'
import { and, asc, desc, eq, ilike, inArray, notInArray, or, type SQL } from 'drizzle-orm'
import { apps, appExtensions, appVersions, media } from '../../server/db/schema/index.ts'
import type { Executor, Tx } from '../../server/db/client.ts'
import { newId } from '../../server/db/ids.ts'
import { badRequest, conflict, fieldError, notFound } from './errors.ts'
import { EVENT_SCOPES, type EventName } from '../../server/events.ts'
import { DEFAULT_SIGNATURE_SCHEME } from '../../sdk/src/contract/events.ts'
import { outboundUrlProblem, redirectUrlProblem, type OutboundPolicy } from '../../server/url-policy.ts'
import { pageWindow } from '../../server/schemas.ts'
import { hashSecret, newClientId, newClientSecret, secretMatches } from './credentials.ts'
import { MAX_SCREENSHOTS, type AppView, type CreateApp, type UpdateApp } from './schemas.ts'
import type { Manifest } from './manifest/schemas.ts'
import { syncExtensions } from './manifest/sync.ts'
import { describeProblems, validateManifest } from './manifest/validate.ts'
import { createReviewThread, snapshotOf } from './review-thread.ts'
import { databaseNow } from '../../server/clock.ts'

// What other capabilities may use without reaching into the apps' files
export { settingsValidator } from './manifest/validate.ts'
// the image checks of uploads, for other capabilities' uploads (product pictures)
export { MAX_MEDIA_BYTES, sniffImage } from './media.ts'

export type AppApprovedListener = (tx: Tx, app: AppRow, previouslyApproved: string[]) => Promise<void>
/** Run inside the transaction that deletes a draft app, before its rows go (installations: end its test installs). */
export type AppDeletingListener = (tx: Tx, app: AppRow) => Promise<void>
/** Told after a submission for review committed (app checks start a run); must not throw. */
export type AppSubmittedListener = (app: AppRow, by: { userId: string, businessId: string | null }) => Promise<void>

declare module 'fastify' {
  interface FastifyInstance {
    /** Apps: ownership, edits, credentials, review, manifest, media. The only writer of the apps' tables. */
    apps: AppsService
    /** Run inside the approval transaction (installations: convert test installs, flag re-consent). */
    onAppApproved: AppApprovedListener[]
    /** Run after a submission for review (app checks). */
    onAppSubmitted: AppSubmittedListener[]
    /** Run inside the deletion of a draft app (installations). */
    onAppDeleting: AppDeletingListener[]
  }
}

/** Escapes LIKE wildcards so a search for "50%" means the text "50%". */
const likePattern = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`
import { countRows } from '../../server/db/rows.ts'

export type AppRow = typeof apps.$inferSelect

export function publicApp (row: AppRow): AppView {
  return {
    id: row.id, clientId: row.clientId, name: row.name, slug: row.slug, description: row.description, category: row.category,
    scopes: row.scopes, approvedScopes: row.approvedScopes, redirectUrl: row.redirectUrl, appUrl: row.appUrl, webhookUrl: row.webhookUrl,
    webhookEvents: row.webhookEvents, webhookSignatureScheme: row.webhookSignatureScheme,
    iconUrl: row.iconUrl, screenshots: row.screenshots, version: row.version, status: row.status,
    isPublished: row.isPublished, reviewNotes: row.reviewNotes, changesRequested: row.changesRequested, manifest: row.manifest,
    createdAt: row.createdAt.toISOString(), updatedAt: row.updatedAt.toISOString()
  }
}

/** Scopes requested but not approved yet: non-empty means the change needs a review. */
export const addedScopes = (app: Pick<AppRow, 'scopes' | 'approvedScopes'>): string[] => app.scopes.filter((s) => !app.approvedScopes.includes(s))

/** Whether a URL is served by the platform itself (DESIGN §14): app code must never run or be called there. */
export type IsPlatformOrigin = (url: string) => boolean

const PLATFORM_URL = "must not point at the platform's own origins (API, admin or storefront)"

/** Images shown in the SPA: an http(s) URL or one of the platform's uploads; never javascript: or data:. */
function imageUrlProblem (value: string): string | null {
  if (/^\/media\/[A-Za-z0-9_-]+$/.test(value)) return null
  try {
    const url = new URL(value)
    return url.protocol === 'https:' || url.protocol === 'http:' ? null : 'must be an http(s) URL or an uploaded /media/ path'
  } catch {
    return 'must be an http(s) URL or an uploaded /media/ path'
  }
}

async function checkUrls (input: { redirectUrl?: string, appUrl?: string | null, webhookUrl?: string | null, iconUrl?: string | null, screenshots?: string[] },
  options: { production: boolean, outbound: OutboundPolicy, isPlatformOrigin: IsPlatformOrigin }): Promise<void> {
  const redirect = input.redirectUrl === undefined
    ? null
    : redirectUrlProblem(input.redirectUrl, options.production) ?? (options.isPlatformOrigin(input.redirectUrl) ? PLATFORM_URL : null)
  if (redirect !== null) throw fieldError('app_url_invalid', '/redirectUrl', redirect)
  // the merchant's browser goes there, like the redirect: the same rules (https in production, never a platform origin)
  const entry = input.appUrl === undefined || input.appUrl === null
    ? null
    : redirectUrlProblem(input.appUrl, options.production) ?? (options.isPlatformOrigin(input.appUrl) ? PLATFORM_URL : null)
  if (entry !== null) throw fieldError('app_url_invalid', '/appUrl', entry)
  const webhook = input.webhookUrl === undefined || input.webhookUrl === null
    ? null
    : await outboundUrlProblem(input.webhookUrl, options.outbound) ?? (options.isPlatformOrigin(input.webhookUrl) ? PLATFORM_URL : null)
  if (webhook !== null) throw fieldError('app_url_invalid', '/webhookUrl', webhook)
  const icon = input.iconUrl === undefined || input.iconUrl === null ? null : imageUrlProblem(input.iconUrl)
  if (icon !== null) throw fieldError('app_image_url_invalid', '/iconUrl', icon)
  for (const [i, screenshot] of (input.screenshots ?? []).entries()) {
    const problem = imageUrlProblem(screenshot)
    if (problem !== null) throw fieldError('app_image_url_invalid', `/screenshots/${i}`, problem)
  }
}

function checkEvents (events: string[], scopes: string[]): void {
  const missing = events.filter((e) => { const scope = EVENT_SCOPES[e as EventName]; return scope !== null && !scopes.includes(scope) })
  if (missing.length > 0) {
    const needs = missing.map((e) => `${e} needs ${EVENT_SCOPES[e as EventName] as string}`).join(', ')
    throw fieldError('webhook_event_scope_missing', '/webhookEvents', `Add the scope or remove the event: ${needs}.`,
      `body/webhookEvents needs scopes the app does not request: ${missing.map((e) => `${e} (${EVENT_SCOPES[e as EventName] as string})`).join(', ')}`)
  }
}

/** Uploaded images live in the database, so every process serves them. */
async function storeMedia (db: Executor, appId: string, contentType: string, bytes: Buffer): Promise<string> {
  const id = newId('med')
  await db.insert(media).values({ id, appId, contentType, size: bytes.length, bytes })
  return `/media/${id}`
}

/**
 * Deletes the app's uploaded files that neither its icon nor its screenshots name any more (a replaced
 * icon, a screenshot taken off): an upload is only ever shown through those fields, so nothing piles up.
 * Runs in the transaction that changed them, after the app row is locked.
 */
async function pruneMedia (tx: Executor, app: AppRow): Promise<void> {
  const referenced = [app.iconUrl ?? '', ...app.screenshots].flatMap((url) => [...url.matchAll(/\/media\/(med_[A-Za-z0-9]+)/g)].map((m) => m[1] as string))
  await tx.delete(media).where(referenced.length === 0 ? eq(media.appId, app.id) : and(eq(media.appId, app.id), notInArray(media.id, referenced)))
}

export interface Actor { id: string }

async function ownedAppIn (executor: Executor, developerId: string, appId: string, lock = false): Promise<AppRow> {
  const query = executor.select().from(apps).where(and(eq(apps.id, appId), eq(apps.developerId, developerId))).limit(1)
  const [row] = lock ? await query.for('update') : await query
  if (row === undefined) throw notFound('app_not_found', 'App')
  return row
}

/** A history entry; submissions and approvals keep what was submitted or approved, for the reviewer's diff. */
async function recordVersion (executor: Executor, app: AppRow, kind: string, actorId: string, changes: string[] = [], notes: string | null = null) {
  const snapshot = kind === 'SUBMITTED' || kind === 'APPROVED' ? snapshotOf(app) : null
  await executor.insert(appVersions).values({
    id: newId('ver'), appId: app.id, version: app.version, kind, changes, scopes: app.scopes, approvedScopes: app.approvedScopes, notes, actorId, snapshot
  })
}

async function pendingReview (tx: Executor, appId: string): Promise<AppRow> {
  const [app] = await tx.select().from(apps).where(eq(apps.id, appId)).for('update')
  if (app === undefined) throw notFound('app_not_found', 'App')
  if (app.status !== 'PENDING_REVIEW') throw conflict('app_not_pending_review', `Only a PENDING_REVIEW app can be reviewed; this one is ${app.status}`)
  return app
}

type AppsOptions = { production: boolean, outbound: OutboundPolicy, isPlatformOrigin: IsPlatformOrigin }

/**
 * The apps service over the database, or over a caller's transaction with `apps.in(tx)` (as commerce
 * and webhooks do): a developer's app that is not theirs is a 404.
 */
export function createAppsService (db: Executor, options: AppsOptions) {
  /** The developer's own app, optionally locked (select … for update) for the caller's transaction. */
  async function ownedApp (developerId: string, appId: string, lock = false): Promise<AppRow> {
    return await ownedAppIn(db, developerId, appId, lock)
  }

  function assertEditable (app: AppRow): void {
    if (app.status === 'PENDING_REVIEW') throw conflict('app_pending_review', 'The app is pending review and cannot be edited until the review ends')
  }

  async function create (developerId: string, input: CreateApp) {
    await checkUrls(input, options)
    checkEvents(input.webhookEvents ?? [], input.scopes)
    const clientSecret = newClientSecret()
    const [row] = await db.insert(apps).values({
      id: newId('app'),
      developerId,
      clientId: newClientId(),
      clientSecretHash: hashSecret(clientSecret),
      name: input.name.trim(),
      slug: input.slug,
      description: input.description.trim(),
      category: input.category,
      scopes: input.scopes,
      redirectUrl: input.redirectUrl,
      appUrl: input.appUrl ?? null,
      webhookUrl: input.webhookUrl ?? null,
      webhookEvents: input.webhookEvents ?? [],
      webhookSignatureScheme: input.webhookSignatureScheme ?? DEFAULT_SIGNATURE_SCHEME,
      screenshots: input.screenshots ?? [],
      version: input.version ?? '1.0.0'
    }).onConflictDoNothing({ target: apps.slug }).returning()
    if (row === undefined) throw conflict('app_slug_taken', `The slug "${input.slug}" is taken`)
    return { app: row, clientSecret }
  }

  async function list (developerId: string, query: { page?: number, limit?: number }) {
    const { page, limit, offset } = pageWindow(query)
    const where = eq(apps.developerId, developerId)
    const [rows, total] = await Promise.all([
      db.select().from(apps).where(where).orderBy(desc(apps.createdAt), desc(apps.id)).limit(limit).offset(offset),
      countRows(db, apps, where)
    ])
    return { data: rows.map(publicApp), total, page, limit }
  }

  /**
   * Edits apply at once, except on a published app where added scopes need a review:
   * the status goes back to DRAFT (to be submitted) while the listing keeps approvedScopes.
   */
  async function update (developerId: string, appId: string, patch: UpdateApp): Promise<AppRow> {
    if (patch.slug !== undefined) throw fieldError('app_slug_immutable', '/slug', 'is immutable after creation')
    await checkUrls(patch, options)
    return await db.transaction(async (tx) => {
      const app = await ownedAppIn(tx, developerId, appId, true)
      assertEditable(app)
      const scopes = patch.scopes ?? app.scopes
      checkEvents(patch.webhookEvents ?? app.webhookEvents, scopes)
      const { slug: _slug, ...fields } = patch
      const changes = Object.entries(fields).filter(([key, value]) => JSON.stringify(value) !== JSON.stringify(app[key as keyof AppRow])).map(([key]) => key)
      const status = app.isPublished ? (addedScopes({ scopes, approvedScopes: app.approvedScopes }).length > 0 ? 'DRAFT' : 'APPROVED') : app.status
      const [updated] = await tx.update(apps).set({ ...fields, status, updatedAt: databaseNow() }).where(eq(apps.id, app.id)).returning()
      if (app.isPublished && status === 'APPROVED' && changes.length > 0) await recordVersion(tx, updated, 'UPDATED', developerId, changes)
      if (changes.includes('iconUrl') || changes.includes('screenshots')) await pruneMedia(tx, updated)
      return updated
    })
  }

  async function submit (developerId: string, appId: string): Promise<AppRow> {
    return await db.transaction(async (tx) => {
      const app = await ownedAppIn(tx, developerId, appId, true)
      if (app.status !== 'DRAFT') throw conflict('app_not_draft', `Only a DRAFT app can be submitted; this one is ${app.status}`)
      const [updated] = await tx.update(apps).set({ status: 'PENDING_REVIEW', changesRequested: false, submittedAt: databaseNow(), updatedAt: databaseNow() })
        .where(eq(apps.id, app.id)).returning()
      await recordVersion(tx, updated, 'SUBMITTED', developerId, addedScopes(updated).length > 0 && app.isPublished ? ['scopes'] : [])
      return updated
    })
  }

  async function regenerateSecret (developerId: string, appId: string): Promise<string> {
    const app = await ownedApp(developerId, appId)
    const clientSecret = newClientSecret()
    await db.update(apps).set({ clientSecretHash: hashSecret(clientSecret), updatedAt: databaseNow() }).where(eq(apps.id, app.id))
    return clientSecret
  }

  async function versions (developerId: string, appId: string, query: { page?: number, limit?: number }) {
    await ownedApp(developerId, appId)
    const { page, limit, offset } = pageWindow(query)
    const where = eq(appVersions.appId, appId)
    const [rows, total] = await Promise.all([
      db.select().from(appVersions).where(where).orderBy(desc(appVersions.createdAt), desc(appVersions.id)).limit(limit).offset(offset),
      countRows(db, appVersions, where)
    ])
    return {
      data: rows.map((v) => ({
        id: v.id, version: v.version, kind: v.kind, changes: v.changes, scopes: v.scopes, approvedScopes: v.approvedScopes,
        notes: v.notes, createdAt: v.createdAt.toISOString()
      })),
      total, page, limit
    }
  }

  /** For the OAuth token exchange: the app whose client id and secret match, or null. Constant-time on the secret. */
  async function verifyClientCredentials (clientId: string, clientSecret: string): Promise<AppRow | null> {
    const [app] = await db.select().from(apps).where(eq(apps.clientId, clientId)).limit(1)
    const ok = secretMatches(clientSecret, app?.clientSecretHash ?? hashSecret('no-such-app'))
    return app !== undefined && ok ? app : null
  }

  async function findByClientId (clientId: string): Promise<AppRow | null> {
    const [app] = await db.select().from(apps).where(eq(apps.clientId, clientId)).limit(1)
    return app ?? null
  }

  async function findById (appId: string): Promise<AppRow | null> {
    const [app] = await db.select().from(apps).where(eq(apps.id, appId)).limit(1)
    return app ?? null
  }

  async function findByIds (appIds: string[]): Promise<AppRow[]> {
    return appIds.length === 0 ? [] : await db.select().from(apps).where(inArray(apps.id, appIds))
  }

  /** The manifest's top-level settingsSchema, or null when the app declares none. */
  async function settingsSchemaOf (appId: string): Promise<Record<string, unknown> | null> {
    const [app] = await db.select({ manifest: apps.manifest }).from(apps).where(eq(apps.id, appId))
    const schema = app?.manifest?.settingsSchema
    return typeof schema === 'object' && schema !== null ? schema as Record<string, unknown> : null
  }

  /** Active extensions of these apps, by kind then key. */
  async function activeExtensionsOf (appIds: string[], kinds: Array<'block' | 'embed' | 'hook' | 'admin_page'>) {
    if (appIds.length === 0) return []
    return await db.select({
      appId: appExtensions.appId, kind: appExtensions.kind, key: appExtensions.key, definition: appExtensions.definition,
      createdAt: appExtensions.createdAt
    })
      .from(appExtensions)
      .where(and(inArray(appExtensions.appId, appIds), inArray(appExtensions.kind, kinds), eq(appExtensions.isActive, true)))
      .orderBy(asc(appExtensions.kind), asc(appExtensions.key))
  }

  /** Active admin pages per app, in the order they were first declared: the sidebar items of the admin panel. */
  async function adminPagesOf (appIds: string[]) {
    const byApp = new Map<string, Array<{ pageId: string, title: string, iconName: string | null, renderUrl: string }>>()
    const rows = (await activeExtensionsOf(appIds, ['admin_page'])).sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime())
    for (const row of rows) {
      const page = row.definition as { pageId: string, title: string, iconName?: string, renderUrl: string }
      byApp.set(row.appId, [...(byApp.get(row.appId) ?? []), {
        pageId: page.pageId, title: page.title, iconName: page.iconName ?? null,
        renderUrl: page.renderUrl
      }])
    }
    return byApp
  }

  /** Synced extensions of one of the developer's apps, active and deactivated. */
  async function extensionsOf (developerId: string, appId: string) {
    const app = await ownedApp(developerId, appId)
    return await db.select().from(appExtensions).where(eq(appExtensions.appId, app.id)).orderBy(asc(appExtensions.kind), asc(appExtensions.key))
  }

  /** Validates everything, then syncs the extensions and stores the manifest in one transaction; dryRun writes nothing. */
  async function saveManifest (developerId: string, appId: string, input: unknown, dryRun: boolean) {
    return await db.transaction(async (tx) => {
      const app = await ownedAppIn(tx, developerId, appId, true)
      assertEditable(app)
      const { production, isPlatformOrigin } = options
      const problems = validateManifest(input, { scopes: app.scopes, webhookUrl: app.webhookUrl, production, isPlatformOrigin })
      if (problems.length > 0) throw badRequest('manifest_invalid', describeProblems(problems), { errors: problems.map((p) => ({ in: 'body', ...p, code: 'manifest_invalid' })) })
      const manifest = input as Manifest
      const sync = await syncExtensions(tx, app.id, manifest, dryRun)
      if (!dryRun) await tx.update(apps).set({ manifest, updatedAt: databaseNow() }).where(eq(apps.id, app.id))
      return { appId: app.id, manifest, sync, dryRun }
    })
  }

  /**
   * Stores an uploaded icon or screenshot and points the app at it. The app row is locked first, so
   * concurrent uploads cannot together pass the screenshot cap (a read-then-write would).
   */
  async function addMedia (app: AppRow, kind: 'icon' | 'screenshot', contentType: string, bytes: Buffer) {
    return await db.transaction(async (tx) => {
      const [current] = await tx.select({ screenshots: apps.screenshots }).from(apps).where(eq(apps.id, app.id)).for('update')
      if (kind === 'screenshot' && current.screenshots.length >= MAX_SCREENSHOTS) throw badRequest('screenshot_limit', `An app has at most ${MAX_SCREENSHOTS} screenshots`)
      const url = await storeMedia(tx, app.id, contentType, bytes)
      const [updated] = await tx.update(apps)
        .set(kind === 'icon' ? { iconUrl: url, updatedAt: databaseNow() } : { screenshots: [...current.screenshots, url], updatedAt: databaseNow() })
        .where(eq(apps.id, app.id)).returning()
      await pruneMedia(tx, updated)
      return { url, app: updated }
    })
  }

  async function mediaById (id: string) {
    const [row] = await db.select().from(media).where(eq(media.id, id)).limit(1)
    return row ?? null
  }

  /** The review queue: oldest submission first. */
  async function reviewQueue (query: { page?: number, limit?: number, status?: 'PENDING_REVIEW' | 'APPROVED' | 'DRAFT' }) {
    const { page, limit, offset } = pageWindow(query)
    const where = eq(apps.status, query.status ?? 'PENDING_REVIEW')
    const [rows, total] = await Promise.all([
      db.select().from(apps).where(where).orderBy(asc(apps.submittedAt), asc(apps.id)).limit(limit).offset(offset),
      countRows(db, apps, where)
    ])
    return { rows, total, page, limit }
  }

  /** Publishes, snapshots approvedScopes, and runs the approval listeners in the same transaction. */
  async function approve (reviewerId: string, appId: string, notes: string | null, listeners: AppApprovedListener[]): Promise<AppRow> {
    return await db.transaction(async (tx) => {
      const app = await pendingReview(tx, appId)
      const now = databaseNow()
      const [updated] = await tx.update(apps).set({
        status: 'APPROVED', isPublished: true, approvedScopes: app.scopes, reviewNotes: notes, changesRequested: false, publishedAt: app.publishedAt ?? now, updatedAt: now
      }).where(eq(apps.id, app.id)).returning()
      await recordVersion(tx, updated, 'APPROVED', reviewerId, [], notes)
      for (const listener of listeners) await listener(tx, updated, app.approvedScopes)
      return updated
    })
  }

  /** Back to DRAFT with the reviewer's notes; a published app stays published. */
  async function reject (reviewerId: string, appId: string, notes: string): Promise<AppRow> {
    return await db.transaction(async (tx) => {
      const app = await pendingReview(tx, appId)
      const [updated] = await tx.update(apps).set({ status: 'DRAFT', reviewNotes: notes, changesRequested: true, updatedAt: databaseNow() }).where(eq(apps.id, app.id)).returning()
      await recordVersion(tx, updated, 'REJECTED', reviewerId, [], notes)
      return updated
    })
  }

  /**
   * Deletes a draft that never reached merchants: never published and not under review. The listeners
   * end its test installs first; the app's rows (manifest extensions, history, replies, media, OAuth
   * codes, installations) go with it by their foreign keys.
   */
  async function deleteDraft (developerId: string, appId: string, listeners: AppDeletingListener[]): Promise<AppRow> {
    return await db.transaction(async (tx) => {
      const app = await ownedAppIn(tx, developerId, appId, true)
      if (app.isPublished) throw conflict('app_published', 'A published app cannot be deleted: merchants may have installed it')
      if (app.status === 'PENDING_REVIEW') throw conflict('app_pending_review', 'The app is pending review: wait for the decision before deleting it')
      for (const listener of listeners) await listener(tx, app)
      await tx.delete(apps).where(eq(apps.id, app.id))
      return app
    })
  }

  /** Published apps for the marketplace, newest first; `q` searches name and description. */
  async function listPublished (query: { page?: number, limit?: number, category?: string, q?: string }) {
    const { page, limit, offset } = pageWindow(query)
    const filters: SQL[] = [eq(apps.isPublished, true)]
    if (query.category !== undefined) filters.push(eq(apps.category, query.category as AppRow['category']))
    if (query.q !== undefined) filters.push(or(ilike(apps.name, likePattern(query.q)), ilike(apps.description, likePattern(query.q))) as SQL)
    const where = and(...filters)
    const [rows, total] = await Promise.all([
      db.select().from(apps).where(where).orderBy(desc(apps.publishedAt), desc(apps.id)).limit(limit).offset(offset),
      countRows(db, apps, where)
    ])
    return { rows, total, page, limit }
  }

  async function publishedBySlug (slug: string): Promise<AppRow | null> {
    const [row] = await db.select().from(apps).where(and(eq(apps.slug, slug), eq(apps.isPublished, true))).limit(1)
    return row ?? null
  }

  return {
    in: (tx: Executor) => createAppsService(tx, options),
    ownedApp, assertEditable, create, list, update, submit, regenerateSecret, versions, verifyClientCredentials, findByClientId, findById,
    findByIds, settingsSchemaOf, activeExtensionsOf, adminPagesOf, extensionsOf, saveManifest, addMedia, mediaById, reviewQueue, approve, reject,
    listPublished, publishedBySlug, deleteDraft,
    /** The review's history, reply thread and approved baseline (the caller checks who may see the app). */
    reviewThread: createReviewThread(db)
  }
}

export default fp(async function appsService (fastify) {
  const isPlatformOrigin = (url: string) => fastify.origins.isPlatformOrigin(url)
  fastify.decorate('apps', createAppsService(fastify.db, { production: fastify.config.production, outbound: fastify.outbound, isPlatformOrigin }))
  fastify.decorate('onAppApproved', [] as AppApprovedListener[])
  fastify.decorate('onAppSubmitted', [] as AppSubmittedListener[])
  fastify.decorate('onAppDeleting', [] as AppDeletingListener[])
}, { name: 'apps', dependencies: ['db', 'config', 'outbound', 'origins'] })

export type AppsService = ReturnType<typeof createAppsService>
