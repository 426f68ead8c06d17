import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from '@sinclair/typebox'
import { and, desc, eq, ilike, or, sql, type SQL } from 'drizzle-orm'
import { apps, installations, users } from '../../server/db/schema/index.ts'
import { Paginated, PaginationQuery, errorResponses, pageWindow } from '../../server/schemas.ts'
import { notFound } from '../../server/http-errors.ts'
import { CategorySchema } from '../apps/schemas.ts'
import { countRows } from '../../server/db/rows.ts'

const tags = ['marketplace']

export const ListingSchema = Type.Object({
  id: Type.String(),
  clientId: Type.String({ description: 'Public OAuth client id, to start an install' }),
  name: Type.String(),
  slug: Type.String(),
  description: Type.String(),
  category: Type.String(),
  iconUrl: Type.Union([Type.String(), Type.Null()]),
  screenshots: Type.Array(Type.String()),
  scopes: Type.Array(Type.String(), { description: 'The approved scopes' }),
  version: Type.String(),
  developerName: Type.String(),
  installCount: Type.Integer({ description: 'Active installs, test installs excluded' }),
  publishedAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()])
})

const ListQuery = Type.Intersect([
  PaginationQuery(),
  Type.Object({ category: Type.Optional(CategorySchema), q: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: 'Search in name and description' })) })
])

/** Escapes LIKE wildcards so a search for "50%" means the text "50%". */
const likePattern = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`

/** Public marketplace: published apps only; DRAFT apps never appear. */
const marketplaceRoutes: FastifyPluginAsyncTypebox = async (fastify) => {
  const installCount = sql<number>`(select count(*)::int from ${installations} i where i.app_id = ${apps.id} and not i.is_test_install and i.uninstalled_at is null)`
  const columns = {
    id: apps.id, clientId: apps.clientId, name: apps.name, slug: apps.slug, description: apps.description, category: apps.category,
    iconUrl: apps.iconUrl, screenshots: apps.screenshots, scopes: apps.approvedScopes, version: apps.version,
    developerName: users.name, installCount, publishedAt: apps.publishedAt
  }
  const listing = <T extends { publishedAt: Date | null }>(row: T) => ({ ...row, publishedAt: row.publishedAt?.toISOString() ?? null })

  fastify.get('/apps', {
    schema: { tags, summary: 'Browse published apps', querystring: ListQuery, response: { 200: Paginated(ListingSchema), ...errorResponses(400) } }
  }, async (request) => {
    const { page, limit, offset } = pageWindow(request.query)
    const filters: SQL[] = [eq(apps.isPublished, true)]
    if (request.query.category !== undefined) filters.push(eq(apps.category, request.query.category))
    if (request.query.q !== undefined) filters.push(or(ilike(apps.name, likePattern(request.query.q)), ilike(apps.description, likePattern(request.query.q))) as SQL)
    const where = and(...filters)
    const [rows, total] = await Promise.all([
      fastify.db.select(columns).from(apps).innerJoin(users, eq(users.id, apps.developerId)).where(where)
        .orderBy(desc(apps.publishedAt), desc(apps.id)).limit(limit).offset(offset),
      countRows(fastify.db, apps, where)
    ])
    return { data: rows.map(listing), total, page, limit }
  })

  fastify.get('/apps/:slug', {
    schema: { tags, summary: 'A published app by slug', params: Type.Object({ slug: Type.String({ minLength: 1, maxLength: 64 }) }), response: { 200: ListingSchema, ...errorResponses(404) } }
  }, async (request) => {
    const [row] = await fastify.db.select(columns).from(apps).innerJoin(users, eq(users.id, apps.developerId))
      .where(and(eq(apps.slug, request.params.slug), eq(apps.isPublished, true))).limit(1)
    if (row === undefined) throw notFound('App')
    return listing(row)
  })
}

export default marketplaceRoutes
