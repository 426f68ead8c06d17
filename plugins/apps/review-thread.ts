import { and, desc, eq, sql } from 'drizzle-orm'
import { appReviewReplies, appVersions } from '../../server/db/schema/index.ts'
import type { Executor } from '../../server/db/client.ts'
import { newId } from '../../server/db/ids.ts'
import { countRows, rows } from '../../server/db/rows.ts'
import { conflict } from './errors.ts'
import { pageWindow } from '../../server/schemas.ts'
import type { AppRow } from './app-row.ts'
import { SNAPSHOT_FIELDS } from './schemas.ts'

/** What a reviewer approves (SNAPSHOT_FIELDS: the listing fields and the manifest). The diff compares two of these. */
export type AppSnapshot = Pick<AppRow, typeof SNAPSHOT_FIELDS[number]>

export function snapshotOf (app: AppRow): AppSnapshot {
  return Object.fromEntries(SNAPSHOT_FIELDS.map((field) => [field, app[field]])) as AppSnapshot
}

export type ReviewAuthorRole = 'DEVELOPER' | 'REVIEWER'
export const REPLY_MAX_LENGTH = 5000

interface HistoryRow {
  id: string
  kind: string
  version: string | null
  notes: string | null
  changes: string[]
  actor_id: string
  author_role: ReviewAuthorRole | null
  created_at: string | Date
}

/** A history entry; submissions and approvals keep what was submitted or approved, for the reviewer's diff. */
export async function recordVersion (executor: Executor, app: AppRow, kind: string, actorId: string, changes: string[] = [], notes: string | null = null) {
  const snapshot = kind === 'SUBMITTED' || kind === 'APPROVED' ? snapshotOf(app) : null
  await executor.insert(appVersions).values({
    id: newId('ver'), appId: app.id, version: app.version, kind, changes, scopes: app.scopes, approvedScopes: app.approvedScopes, notes, actorId, snapshot
  })
}

// The review's record for one app: decisions (app_versions) and the reply thread (app_review_replies),
// read together newest first. The caller has checked who may see the app.

/** Submissions, approvals, rejections, live edits and replies, newest first, one page. */
export async function history (executor: Executor, appId: string, query: { page?: number, limit?: number }) {
  const { page, limit, offset } = pageWindow(query)
  const [items, decisions, replies] = await Promise.all([
    rows(executor, sql<HistoryRow>`
      select id, kind, version, notes, changes, actor_id, null as author_role, created_at from app_versions where app_id = ${appId}
      union all
      select id, 'REPLY', null, body, '[]'::jsonb, author_id, author_role, created_at from app_review_replies where app_id = ${appId}
      order by created_at desc, id desc limit ${limit} offset ${offset}`),
    countRows(executor, appVersions, eq(appVersions.appId, appId)),
    countRows(executor, appReviewReplies, eq(appReviewReplies.appId, appId))
  ])
  return { items, total: decisions + replies, page, limit }
}

/** A reply on the review; the developer may reply once a reviewer has decided something (there is something to answer). */
export async function reply (executor: Executor, app: AppRow, author: { id: string, role: ReviewAuthorRole }, body: string) {
  if (author.role === 'DEVELOPER') {
    const [decided] = await executor.select({ id: appVersions.id }).from(appVersions)
      .where(and(eq(appVersions.appId, app.id), sql`${appVersions.kind} in ('APPROVED', 'REJECTED')`)).limit(1)
    if (decided === undefined) throw conflict('review_reply_too_early', 'Nothing to reply to yet: no reviewer has decided on this app')
  }
  const [row] = await executor.insert(appReviewReplies).values({ id: newId('rpl'), appId: app.id, authorId: author.id, authorRole: author.role, body: body.trim() }).returning()
  return row
}

/** The snapshot of the last approval, or null (never approved, or approved before snapshots were kept). */
export async function approvedBaseline (executor: Executor, appId: string) {
  const [row] = await executor.select({ version: appVersions.version, snapshot: appVersions.snapshot, createdAt: appVersions.createdAt }).from(appVersions)
    .where(and(eq(appVersions.appId, appId), eq(appVersions.kind, 'APPROVED'))).orderBy(desc(appVersions.createdAt), desc(appVersions.id)).limit(1)
  return row ?? null
}

const REVIEWER_KINDS = new Set(['APPROVED', 'REJECTED'])

/** Names of user accounts by id: the auth capability's, passed in by the composition root (no decorator call back into auth). */
export type AuthorNames = (ids: string[]) => Promise<Map<string, string>>
/** Options of the route plugins that show a review's record. */

/** History rows as the API shows them, with the authors' names. */
export async function reviewEvents (items: HistoryRow[], namesOf: AuthorNames) {
  const names = await namesOf(items.map((item) => item.actor_id))
  return items.map((item) => ({
    id: item.id,
    kind: item.kind as 'SUBMITTED' | 'APPROVED' | 'REJECTED' | 'UPDATED' | 'REPLY',
    version: item.version,
    notes: item.notes,
    changes: item.changes,
    author: {
      id: item.actor_id,
      name: names.get(item.actor_id) ?? 'Deleted account',
      role: item.author_role ?? (REVIEWER_KINDS.has(item.kind) ? 'REVIEWER' as const : 'DEVELOPER' as const)
    },
    createdAt: new Date(item.created_at).toISOString()
  }))
}

/** A reply row as a history entry. */
export function replyEvent (row: typeof appReviewReplies.$inferSelect): HistoryRow {
  return { id: row.id, kind: 'REPLY', version: null, notes: row.body, changes: [], actor_id: row.authorId, author_role: row.authorRole, created_at: row.createdAt }
}
