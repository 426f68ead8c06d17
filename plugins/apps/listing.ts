import { and, desc, eq, ilike, inArray, or, type SQL } from 'drizzle-orm'
import { apps } from '../../server/db/schema/index.ts'
import type { Executor } from '../../server/db/client.ts'
import { countRows } from '../../server/db/rows.ts'
import { pageWindow } from '../../server/schemas.ts'
import type { AppRow } from './app-row.ts'

/** Escapes LIKE wildcards so a search for "50%" means the text "50%". */
const likePattern = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`

export async function findById (executor: Executor, appId: string): Promise<AppRow | null> {
  const [app] = await executor.select().from(apps).where(eq(apps.id, appId)).limit(1)
  return app ?? null
}

export async function findByIds (executor: Executor, appIds: string[]): Promise<AppRow[]> {
  return appIds.length === 0 ? [] : await executor.select().from(apps).where(inArray(apps.id, appIds))
}

/** Published apps for the marketplace, newest first; `q` searches name and description. */
export async function listPublished (executor: Executor, query: { page?: number, limit?: number, category?: string, q?: string }) {
  const { page, limit, offset } = pageWindow(query)
  const filters: SQL[] = [eq(apps.isPublished, true)]
  if (query.category !== undefined) filters.push(eq(apps.category, query.category as AppRow['category']))
  if (query.q !== undefined) filters.push(or(ilike(apps.name, likePattern(query.q)), ilike(apps.description, likePattern(query.q))) as SQL)
  const where = and(...filters)
  const [rows, total] = await Promise.all([
    executor.select().from(apps).where(where).orderBy(desc(apps.publishedAt), desc(apps.id)).limit(limit).offset(offset),
    countRows(executor, apps, where)
  ])
  return { rows, total, page, limit }
}

export async function publishedBySlug (executor: Executor, slug: string): Promise<AppRow | null> {
  const [row] = await executor.select().from(apps).where(and(eq(apps.slug, slug), eq(apps.isPublished, true))).limit(1)
  return row ?? null
}
