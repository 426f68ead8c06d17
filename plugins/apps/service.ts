import { and, desc, eq } from 'drizzle-orm'
import { apps, appVersions } from '../../server/db/schema/index.ts'
import type { Db, Executor } from '../../server/db/client.ts'
import { newId } from '../../server/db/ids.ts'
import { badRequest, conflict, notFound } from '../../server/http-errors.ts'
import { EVENT_SCOPES, type EventName } from '../../server/events.ts'
import { outboundUrlProblem, redirectUrlProblem } from '../../server/url-policy.ts'
import { pageWindow } from '../../server/schemas.ts'
import { hashSecret, newClientId, newClientSecret, secretMatches } from './credentials.ts'
import type { AppView, CreateApp, UpdateApp } from './schemas.ts'
import { countRows } from '../../server/db/rows.ts'

export type AppRow = typeof apps.$inferSelect

export function publicApp (row: AppRow): AppView {
  return {
    id: row.id, clientId: row.clientId, name: row.name, slug: row.slug, description: row.description, category: row.category,
    scopes: row.scopes, approvedScopes: row.approvedScopes, redirectUrl: row.redirectUrl, webhookUrl: row.webhookUrl,
    webhookEvents: row.webhookEvents, iconUrl: row.iconUrl, screenshots: row.screenshots, version: row.version, status: row.status,
    isPublished: row.isPublished, reviewNotes: row.reviewNotes, manifest: row.manifest,
    createdAt: row.createdAt.toISOString(), updatedAt: row.updatedAt.toISOString()
  }
}

/** Scopes requested but not approved yet: non-empty means the change needs a review. */
export const addedScopes = (app: Pick<AppRow, 'scopes' | 'approvedScopes'>): string[] => app.scopes.filter((s) => !app.approvedScopes.includes(s))

async function checkUrls (input: { redirectUrl?: string, webhookUrl?: string | null }, production: boolean): Promise<void> {
  const redirect = input.redirectUrl === undefined ? null : redirectUrlProblem(input.redirectUrl, production)
  if (redirect !== null) throw badRequest(`body/redirectUrl ${redirect}`)
  const webhook = input.webhookUrl === undefined || input.webhookUrl === null ? null : await outboundUrlProblem(input.webhookUrl, production)
  if (webhook !== null) throw badRequest(`body/webhookUrl ${webhook}`)
}

function checkEvents (events: string[], scopes: string[]): void {
  const missing = events.filter((e) => { const scope = EVENT_SCOPES[e as EventName]; return scope !== null && !scopes.includes(scope) })
  if (missing.length > 0) {
    throw badRequest(`body/webhookEvents needs scopes the app does not request: ${missing.map((e) => `${e} (${EVENT_SCOPES[e as EventName] as string})`).join(', ')}`)
  }
}

export interface Actor { id: string }

export function createAppsService (db: Db, options: { production: boolean }) {
  async function ownedApp (executor: Executor, developerId: string, appId: string, lock = false): Promise<AppRow> {
    const query = executor.select().from(apps).where(and(eq(apps.id, appId), eq(apps.developerId, developerId))).limit(1)
    const [row] = lock ? await query.for('update') : await query
    if (row === undefined) throw notFound('App')
    return row
  }

  function assertEditable (app: AppRow): void {
    if (app.status === 'PENDING_REVIEW') throw conflict('The app is pending review and cannot be edited until the review ends')
  }

  async function recordVersion (executor: Executor, app: AppRow, kind: string, actorId: string, changes: string[] = [], notes: string | null = null) {
    await executor.insert(appVersions).values({
      id: newId('ver'), appId: app.id, version: app.version, kind, changes, scopes: app.scopes, approvedScopes: app.approvedScopes, notes, actorId
    })
  }

  async function create (developerId: string, input: CreateApp) {
    await checkUrls(input, options.production)
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
      webhookUrl: input.webhookUrl ?? null,
      webhookEvents: input.webhookEvents ?? [],
      screenshots: input.screenshots ?? [],
      version: input.version ?? '1.0.0'
    }).onConflictDoNothing({ target: apps.slug }).returning()
    if (row === undefined) throw conflict(`The slug "${input.slug}" is taken`)
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
    if (patch.slug !== undefined) throw badRequest('body/slug is immutable after creation')
    await checkUrls(patch, options.production)
    return await db.transaction(async (tx) => {
      const app = await ownedApp(tx, developerId, appId, true)
      assertEditable(app)
      const scopes = patch.scopes ?? app.scopes
      checkEvents(patch.webhookEvents ?? app.webhookEvents, scopes)
      const { slug: _slug, ...fields } = patch
      const changes = Object.entries(fields).filter(([key, value]) => JSON.stringify(value) !== JSON.stringify(app[key as keyof AppRow])).map(([key]) => key)
      const status = app.isPublished ? (addedScopes({ scopes, approvedScopes: app.approvedScopes }).length > 0 ? 'DRAFT' : 'APPROVED') : app.status
      const [updated] = await tx.update(apps).set({ ...fields, status, updatedAt: new Date() }).where(eq(apps.id, app.id)).returning()
      if (app.isPublished && status === 'APPROVED' && changes.length > 0) await recordVersion(tx, updated, 'UPDATED', developerId, changes)
      return updated
    })
  }

  async function submit (developerId: string, appId: string): Promise<AppRow> {
    return await db.transaction(async (tx) => {
      const app = await ownedApp(tx, developerId, appId, true)
      if (app.status !== 'DRAFT') throw conflict(`Only a DRAFT app can be submitted; this one is ${app.status}`)
      const [updated] = await tx.update(apps).set({ status: 'PENDING_REVIEW', submittedAt: new Date(), updatedAt: new Date() }).where(eq(apps.id, app.id)).returning()
      await recordVersion(tx, updated, 'SUBMITTED', developerId, addedScopes(updated).length > 0 && app.isPublished ? ['scopes'] : [])
      return updated
    })
  }

  async function regenerateSecret (developerId: string, appId: string): Promise<string> {
    const app = await ownedApp(db, developerId, appId)
    const clientSecret = newClientSecret()
    await db.update(apps).set({ clientSecretHash: hashSecret(clientSecret), updatedAt: new Date() }).where(eq(apps.id, app.id))
    return clientSecret
  }

  async function versions (developerId: string, appId: string, query: { page?: number, limit?: number }) {
    await ownedApp(db, developerId, appId)
    const { page, limit, offset } = pageWindow(query)
    const where = eq(appVersions.appId, appId)
    const [rows, total] = await Promise.all([
      db.select().from(appVersions).where(where).orderBy(desc(appVersions.createdAt), desc(appVersions.id)).limit(limit).offset(offset),
      countRows(db, appVersions, where)
    ])
    return {
      data: rows.map((v) => ({ id: v.id, version: v.version, kind: v.kind, changes: v.changes, scopes: v.scopes, approvedScopes: v.approvedScopes, notes: v.notes, createdAt: v.createdAt.toISOString() })),
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

  async function findById (executor: Executor, appId: string): Promise<AppRow | null> {
    const [app] = await executor.select().from(apps).where(eq(apps.id, appId)).limit(1)
    return app ?? null
  }

  return { ownedApp, assertEditable, recordVersion, create, list, update, submit, regenerateSecret, versions, verifyClientCredentials, findByClientId, findById }
}

export type AppsService = ReturnType<typeof createAppsService>
