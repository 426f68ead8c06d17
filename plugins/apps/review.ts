import { asc, desc, eq } from 'drizzle-orm'
import { apps, appVersions } from '../../server/db/schema/index.ts'
import type { Executor, Tx } from '../../server/db/client.ts'
import { countRows } from '../../server/db/rows.ts'
import { pageWindow } from '../../server/schemas.ts'
import { databaseNow } from '../../server/clock.ts'
import { conflict, notFound } from './errors.ts'
import { changesForReview, type AppRow } from './app-row.ts'
import { ownedApp } from './apps.ts'
import { recordVersion } from './review-thread.ts'

export type AppApprovedListener = (tx: Tx, app: AppRow, previouslyApproved: string[]) => Promise<void>

async function pendingReview (tx: Executor, appId: string): Promise<AppRow> {
  const [app] = await tx.select().from(apps).where(eq(apps.id, appId)).for('update')
  if (app === undefined) throw notFound('app_not_found', 'App')
  if (app.status !== 'PENDING_REVIEW') throw conflict('app_not_pending_review', `Only a PENDING_REVIEW app can be reviewed; this one is ${app.status}`)
  return app
}

export async function submit (executor: Executor, developerId: string, appId: string): Promise<AppRow> {
  return await executor.transaction(async (tx) => {
    const app = await ownedApp(tx, developerId, appId, true)
    if (app.status !== 'DRAFT') throw conflict('app_not_draft', `Only a DRAFT app can be submitted; this one is ${app.status}`)
    const [updated] = await tx.update(apps).set({ status: 'PENDING_REVIEW', changesRequested: false, submittedAt: databaseNow(), updatedAt: databaseNow() })
      .where(eq(apps.id, app.id)).returning()
    await recordVersion(tx, updated, 'SUBMITTED', developerId, app.isPublished ? changesForReview(updated) : [])
    return updated
  })
}

export async function versions (executor: Executor, developerId: string, appId: string, query: { page?: number, limit?: number }) {
  await ownedApp(executor, developerId, appId)
  const { page, limit, offset } = pageWindow(query)
  const where = eq(appVersions.appId, appId)
  const [rows, total] = await Promise.all([
    executor.select().from(appVersions).where(where).orderBy(desc(appVersions.createdAt), desc(appVersions.id)).limit(limit).offset(offset),
    countRows(executor, appVersions, where)
  ])
  return {
    data: rows.map((v) => ({
      id: v.id, version: v.version, kind: v.kind, changes: v.changes, scopes: v.scopes, approvedScopes: v.approvedScopes,
      notes: v.notes, createdAt: v.createdAt.toISOString()
    })),
    total, page, limit
  }
}

/** The review queue: oldest submission first. */
export async function reviewQueue (executor: Executor, query: { page?: number, limit?: number, status?: 'PENDING_REVIEW' | 'APPROVED' | 'DRAFT' }) {
  const { page, limit, offset } = pageWindow(query)
  const where = eq(apps.status, query.status ?? 'PENDING_REVIEW')
  const [rows, total] = await Promise.all([
    executor.select().from(apps).where(where).orderBy(asc(apps.submittedAt), asc(apps.id)).limit(limit).offset(offset),
    countRows(executor, apps, where)
  ])
  return { rows, total, page, limit }
}

/** Publishes, snapshots approvedScopes and approvedPricing, and runs the approval listeners in the same transaction. */
export async function approve (executor: Executor, reviewerId: string, appId: string, notes: string | null, listeners: AppApprovedListener[]): Promise<AppRow> {
  return await executor.transaction(async (tx) => {
    const app = await pendingReview(tx, appId)
    const now = databaseNow()
    const [updated] = await tx.update(apps).set({
      status: 'APPROVED', isPublished: true, approvedScopes: app.scopes, approvedPricing: app.pricing, reviewNotes: notes, changesRequested: false, publishedAt: app.publishedAt ?? now, updatedAt: now
    }).where(eq(apps.id, app.id)).returning()
    await recordVersion(tx, updated, 'APPROVED', reviewerId, [], notes)
    for (const listener of listeners) await listener(tx, updated, app.approvedScopes)
    return updated
  })
}

/** Back to DRAFT with the reviewer's notes; a published app stays published. */
export async function reject (executor: Executor, reviewerId: string, appId: string, notes: string): Promise<AppRow> {
  return await executor.transaction(async (tx) => {
    const app = await pendingReview(tx, appId)
    const [updated] = await tx.update(apps).set({ status: 'DRAFT', reviewNotes: notes, changesRequested: true, updatedAt: databaseNow() }).where(eq(apps.id, app.id)).returning()
    await recordVersion(tx, updated, 'REJECTED', reviewerId, [], notes)
    return updated
  })
}
