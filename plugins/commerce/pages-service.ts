import { and, asc, desc, eq } from 'drizzle-orm'
import { pages } from '../../server/db/schema/index.ts'
import type { Executor } from '../../server/db/client.ts'
import { newId } from '../../server/db/ids.ts'
import { conflict, notFound } from '../../server/http-errors.ts'
import { pageWindow } from '../../server/schemas.ts'
import { isUniqueViolation } from '../../server/db/rows.ts'
import { PAGE_PAGE_LIMITS, type Page, type PageCreateBody, type PagePatchBody } from './schemas.ts'
import { serializePage } from './serializers.ts'
import { countRows } from '../../server/db/rows.ts'

const slugTaken = () => conflict('This business already has a page with this slug')
const bySlug = (businessId: string, slug: string) => and(eq(pages.businessId, businessId), eq(pages.slug, slug))

export async function listPages (executor: Executor, businessId: string, query: { page?: number, limit?: number } = {}) {
  const { page, limit, offset } = pageWindow(query, PAGE_PAGE_LIMITS)
  const total = await countRows(executor, pages, eq(pages.businessId, businessId))
  const rows = await executor.select().from(pages).where(eq(pages.businessId, businessId))
    .orderBy(desc(pages.createdAt), asc(pages.id)).limit(limit).offset(offset)
  return { data: rows.map(serializePage), total, page, limit }
}

export async function getPage (executor: Executor, businessId: string, slug: string): Promise<Page> {
  const [row] = await executor.select().from(pages).where(bySlug(businessId, slug)).limit(1)
  if (row === undefined) throw notFound('Page')
  return serializePage(row)
}

export async function createPage (executor: Executor, businessId: string, input: PageCreateBody): Promise<Page> {
  try {
    const [row] = await executor.insert(pages).values({
      id: newId('page'), businessId, slug: input.slug, title: input.title.trim(), isPublished: input.isPublished ?? true, blocks: []
    }).returning()
    return serializePage(row)
  } catch (error) {
    throw isUniqueViolation(error) ? slugTaken() : error
  }
}

export async function updatePage (executor: Executor, businessId: string, slug: string, patch: PagePatchBody): Promise<Page> {
  try {
    const [row] = await executor.update(pages)
      .set({ ...patch, ...(patch.title !== undefined ? { title: patch.title.trim() } : {}), updatedAt: new Date() })
      .where(bySlug(businessId, slug)).returning()
    if (row === undefined) throw notFound('Page')
    return serializePage(row)
  } catch (error) {
    throw isUniqueViolation(error) ? slugTaken() : error
  }
}

export async function deletePage (executor: Executor, businessId: string, slug: string): Promise<void> {
  const [row] = await executor.delete(pages).where(bySlug(businessId, slug)).returning({ id: pages.id })
  if (row === undefined) throw notFound('Page')
}
