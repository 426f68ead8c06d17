import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from '@sinclair/typebox'
import { and, asc, eq, sql } from 'drizzle-orm'
import { pages } from '../../server/db/schema/index.ts'
import { Paginated, PaginationQuery, errorResponses, pageWindow } from '../../server/schemas.ts'
import { notFound } from '../../server/http-errors.ts'
import { findBusiness } from '../merchant/businesses.ts'

const security = [{ appToken: [] }]
const tags = ['app-api']
const limited = errorResponses(401, 403, 429)

const BusinessSchema = Type.Object({
  id: Type.String(), name: Type.String(), slug: Type.String(), type: Type.String(), address: Type.String(), currency: Type.String(),
  locale: Type.String(), timezone: Type.String(), email: Type.String(), phone: Type.String()
})
const PageSchema = Type.Object({
  id: Type.String(), slug: Type.String(), title: Type.String(), isPublished: Type.Boolean(),
  blocks: Type.Array(Type.Object({ id: Type.String(), installationId: Type.String(), blockType: Type.String(), settings: Type.Record(Type.String(), Type.Unknown()) })),
  updatedAt: Type.String({ format: 'date-time' })
})
const toPage = (row: typeof pages.$inferSelect) => ({ id: row.id, slug: row.slug, title: row.title, isPublished: row.isPublished, blocks: row.blocks, updatedAt: row.updatedAt.toISOString() })

/** The App API: data of the token's business only, each route behind its scope. */
const appApiRoutes: FastifyPluginAsyncTypebox = async (fastify) => {
  fastify.get('/business', {
    preHandler: fastify.requireScope('read_business'),
    schema: { tags, security, summary: 'Business information (read_business)', response: { 200: BusinessSchema, ...limited } }
  }, async (request) => {
    const business = await findBusiness(fastify.db, request.installation.businessId)
    if (business === null) throw notFound('Business')
    const { id, name, slug, type, address, currency, locale, timezone, email, phone } = business
    return { id, name, slug, type, address, currency, locale, timezone, email, phone }
  })

  fastify.get('/pages', {
    preHandler: fastify.requireScope('read_pages'),
    schema: { tags, security, summary: 'Site pages (read_pages)', querystring: PaginationQuery(), response: { 200: Paginated(PageSchema), ...errorResponses(400, 401, 403, 429) } }
  }, async (request) => {
    const { page, limit, offset } = pageWindow(request.query)
    const where = eq(pages.businessId, request.installation.businessId)
    const [rows, [{ total }]] = await Promise.all([
      fastify.db.select().from(pages).where(where).orderBy(asc(pages.slug)).limit(limit).offset(offset),
      fastify.db.select({ total: sql<number>`count(*)::int` }).from(pages).where(where)
    ])
    return { data: rows.map(toPage), total, page, limit }
  })

  fastify.get('/pages/:slug', {
    preHandler: fastify.requireScope('read_pages'),
    schema: { tags, security, summary: 'A site page by slug (read_pages)', params: Type.Object({ slug: Type.String({ minLength: 1, maxLength: 100 }) }), response: { 200: PageSchema, ...errorResponses(401, 403, 404, 429) } }
  }, async (request) => {
    const [row] = await fastify.db.select().from(pages).where(and(eq(pages.businessId, request.installation.businessId), eq(pages.slug, request.params.slug))).limit(1)
    if (row === undefined) throw notFound('Page')
    return toPage(row)
  })
}

export default appApiRoutes
