import { and, asc, desc, eq, ilike, inArray, or, sql, type SQL } from 'drizzle-orm'
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

type PublishedFilter = { category?: string, q?: string }

function publishedWhere (query: PublishedFilter) {
  const filters: SQL[] = [eq(apps.isPublished, true)]
  if (query.category !== undefined) filters.push(eq(apps.category, query.category as AppRow['category']))
  if (query.q !== undefined) filters.push(or(ilike(apps.name, likePattern(query.q)), ilike(apps.description, likePattern(query.q))) as SQL)
  return and(...filters)
}

/** Published apps for the marketplace, newest first (or by name, A to Z); `q` searches name and description. */
export async function listPublished (executor: Executor, query: PublishedFilter & { page?: number, limit?: number, sort?: 'newest' | 'name' }) {
  const { page, limit, offset } = pageWindow(query)
  const where = publishedWhere(query)
  const order = query.sort === 'name' ? [asc(sql`lower(${apps.name})`), asc(apps.id)] : [desc(apps.publishedAt), desc(apps.id)]
  const [rows, total] = await Promise.all([
    executor.select().from(apps).where(where).orderBy(...order).limit(limit).offset(offset),
    countRows(executor, apps, where)
  ])
  return { rows, total, page, limit }
}

/** Every published app of the filter, newest first, unpaginated: for the marketplace's sorts by figures other capabilities keep (rating, installs). */
export async function allPublished (executor: Executor, query: PublishedFilter): Promise<AppRow[]> {
  return await executor.select().from(apps).where(publishedWhere(query)).orderBy(desc(apps.publishedAt), desc(apps.id))
}

export async function publishedBySlug (executor: Executor, slug: string): Promise<AppRow | null> {
  const [row] = await executor.select().from(apps).where(and(eq(apps.slug, slug), eq(apps.isPublished, true))).limit(1)
  return row ?? null
}
