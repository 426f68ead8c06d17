import { and, asc, eq, inArray, sql } from 'drizzle-orm'
import { pages, type BlockInstance, type RemovedBlock } from '../../server/db/schema/index.ts'
import type { Executor } from '../../server/db/client.ts'
import { newId } from '../../server/db/ids.ts'
import { conflict, notFound } from './errors.ts'
import { pageWindow } from '../../server/schemas.ts'
import { isUniqueViolation } from '../../server/db/rows.ts'
import { MAX_PAGE_BLOCKS, PAGE_PAGE_LIMITS, type Page, type PageCreateBody, type PagePatchBody } from './schemas.ts'
import { serializePage, type PageRow } from './serializers.ts'
import { businessPage } from '../../server/db/rows.ts'
import { databaseNow } from '../../server/clock.ts'
import { changedFields, recordActivity } from '../../server/activity.ts'

const slugTaken = () => conflict('page_slug_taken', 'This business already has a page with this slug')
const bySlug = (businessId: string, slug: string) => and(eq(pages.businessId, businessId), eq(pages.slug, slug))

export async function listPages (executor: Executor, businessId: string, query: { page?: number, limit?: number } = {}) {
  const { page, limit, offset } = pageWindow(query, PAGE_PAGE_LIMITS)
  const { rows, total } = await businessPage(executor, pages, 'pages_page', businessId, { limit, offset })
  return { data: rows.map((row) => serializePage(row)), total, page, limit }
}

export async function getPage (executor: Executor, businessId: string, slug: string): Promise<Page> {
  const [row] = await executor.select().from(pages).where(bySlug(businessId, slug)).limit(1)
  if (row === undefined) throw notFound('page_not_found', 'Page')
  return serializePage(row)
}

export async function createPage (executor: Executor, businessId: string, input: PageCreateBody): Promise<Page> {
  try {
    return await executor.transaction(async (tx) => {
      const [row] = await tx.insert(pages).values({
        id: newId('page'), businessId, slug: input.slug, title: input.title.trim(), isPublished: input.isPublished ?? true, blocks: []
      }).returning()
      await recordActivity(tx, { businessId, action: 'page.created', resource: { type: 'page', id: row.id }, changes: { slug: row.slug, title: row.title, isPublished: row.isPublished } })
      return serializePage(row)
    })
  } catch (error) {
    throw isUniqueViolation(error) ? slugTaken() : error
  }
}

export async function updatePage (executor: Executor, businessId: string, slug: string, patch: PagePatchBody): Promise<Page> {
  try {
    return await executor.transaction(async (tx) => {
      const [before] = await tx.select().from(pages).where(bySlug(businessId, slug)).limit(1).for('update')
      if (before === undefined) throw notFound('page_not_found', 'Page')
      const [row] = await tx.update(pages)
        .set({ ...patch, ...(patch.title !== undefined ? { title: patch.title.trim() } : {}), updatedAt: databaseNow() })
        .where(eq(pages.id, before.id)).returning()
      await recordActivity(tx, {
        businessId, action: 'page.updated', resource: { type: 'page', id: row.id },
        changes: changedFields(before as unknown as Record<string, unknown>, { ...patch, ...(patch.title !== undefined ? { title: row.title } : {}) })
      })
      return serializePage(row)
    })
  } catch (error) {
    throw isUniqueViolation(error) ? slugTaken() : error
  }
}

export async function deletePage (executor: Executor, businessId: string, slug: string): Promise<void> {
  await executor.transaction(async (tx) => {
    const [row] = await tx.delete(pages).where(bySlug(businessId, slug)).returning({ id: pages.id, title: pages.title })
    if (row === undefined) throw notFound('page_not_found', 'Page')
    await recordActivity(tx, { businessId, action: 'page.deleted', resource: { type: 'page', id: row.id }, changes: { slug, title: row.title } })
  })
}

/** A page by id, published or not (the editor preview), or null. */
export async function pageById (executor: Executor, businessId: string, pageId: string): Promise<PageRow | null> {
  const [row] = await executor.select().from(pages).where(and(eq(pages.businessId, businessId), eq(pages.id, pageId))).limit(1)
  return row ?? null
}

/** Published pages in creation order: the storefront's navigation. */
export async function publishedPages (executor: Executor, businessId: string): Promise<PageRow[]> {
  return await executor.select().from(pages)
    .where(and(eq(pages.businessId, businessId), eq(pages.isPublished, true)))
    .orderBy(asc(pages.createdAt), asc(pages.id))
}

/**
 * Replaces a page's blocks (already checked by the installations service). The page row is locked,
 * so concurrent saves apply one after the other.
 */
export async function setPageBlocks (executor: Executor, businessId: string, slug: string, blocks: BlockInstance[]): Promise<Page> {
  return await executor.transaction(async (tx) => {
    const [page] = await tx.select({ id: pages.id }).from(pages).where(bySlug(businessId, slug)).limit(1).for('update')
    if (page === undefined) throw notFound('page_not_found', 'Page')
    const [row] = await tx.update(pages).set({ blocks, updatedAt: databaseNow() }).where(eq(pages.id, page.id)).returning()
    await recordActivity(tx, { businessId, action: 'page.blocks_changed', resource: { type: 'page', id: page.id }, changes: { blocks: blocks.length } })
    return serializePage(row)
  })
}

/**
 * Takes an uninstalled app's blocks off every page of the business, in the uninstall's transaction,
 * and says where each one stood (a reinstall may put them back).
 */
export async function removeBlocksOf (executor: Executor, businessId: string, installationId: string): Promise<RemovedBlock[]> {
  const holding = await executor.select({ id: pages.id, slug: pages.slug, blocks: pages.blocks }).from(pages)
    .where(and(eq(pages.businessId, businessId), sql`${pages.blocks} @> ${JSON.stringify([{ installationId }])}::jsonb`))
    .orderBy(asc(pages.createdAt), asc(pages.id)).for('update')
  const removed: RemovedBlock[] = []
  for (const page of holding) {
    page.blocks.forEach((block, position) => {
      if (block.installationId === installationId) removed.push({ pageId: page.id, slug: page.slug, position, block })
    })
    await executor.update(pages).set({ blocks: page.blocks.filter((block) => block.installationId !== installationId), updatedAt: databaseNow() })
      .where(eq(pages.id, page.id))
  }
  return removed
}

export interface BlockPlacement { pageId: string, position: number, block: BlockInstance }
export type PlacementOutcome = { placed: true, slug: string, position: number } | { placed: false, reason: 'page_missing' | 'page_full' }

/**
 * Puts blocks back on the business's pages (already checked by the installations service), each at
 * its position clamped to the page's length, in the order given; a page gone or full is reported.
 */
export async function placeBlocks (executor: Executor, businessId: string, placements: BlockPlacement[]): Promise<PlacementOutcome[]> {
  const pageIds = [...new Set(placements.map((p) => p.pageId))]
  const rows = pageIds.length === 0
    ? []
    : await executor.select({ id: pages.id, slug: pages.slug, blocks: pages.blocks }).from(pages)
      .where(and(eq(pages.businessId, businessId), inArray(pages.id, pageIds))).for('update')
  const byId = new Map(rows.map((row) => [row.id, { ...row, blocks: [...row.blocks] }]))
  const outcomes = placements.map((placement): PlacementOutcome => {
    const page = byId.get(placement.pageId)
    if (page === undefined) return { placed: false, reason: 'page_missing' }
    if (page.blocks.length >= MAX_PAGE_BLOCKS) return { placed: false, reason: 'page_full' }
    const position = Math.max(0, Math.min(placement.position, page.blocks.length))
    page.blocks.splice(position, 0, placement.block)
    return { placed: true, slug: page.slug, position }
  })
  for (const page of byId.values()) {
    await executor.update(pages).set({ blocks: page.blocks, updatedAt: databaseNow() }).where(eq(pages.id, page.id))
  }
  return outcomes
}
