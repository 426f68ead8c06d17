import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from '@sinclair/typebox'
import { and, asc, eq } from 'drizzle-orm'
import { apps } from '../../server/db/schema/index.ts'
import { Paginated, PaginationQuery, errorResponses, pageWindow } from '../../server/schemas.ts'
import { conflict, notFound } from '../../server/http-errors.ts'
import { AppIdParams, AppSchema } from './schemas.ts'
import { addedScopes, publicApp } from './service.ts'
import { countRows } from '../../server/db/rows.ts'

const security = [{ developerJwt: [] }]
const tags = ['review']

const ReviewQueueQuery = Type.Intersect([
  PaginationQuery(),
  Type.Object({ status: Type.Optional(Type.Union([Type.Literal('PENDING_REVIEW'), Type.Literal('APPROVED'), Type.Literal('DRAFT')], { default: 'PENDING_REVIEW' })) })
])
const ReviewedApp = Type.Intersect([AppSchema, Type.Object({ addedScopes: Type.Array(Type.String(), { description: 'Scopes this submission adds to the approved set' }) })])

/** /review/apps: the review queue, for REVIEWERs. Oldest submission first. */
const reviewRoutes: FastifyPluginAsyncTypebox = async (fastify) => {
  fastify.addHook('onRequest', fastify.requireRole('REVIEWER'))
  const withAdded = (row: typeof apps.$inferSelect) => ({ ...publicApp(row), addedScopes: addedScopes(row) })

  async function pending (tx: Parameters<Parameters<typeof fastify.db.transaction>[0]>[0], appId: string) {
    const [app] = await tx.select().from(apps).where(eq(apps.id, appId)).for('update')
    if (app === undefined) throw notFound('App')
    if (app.status !== 'PENDING_REVIEW') throw conflict(`Only a PENDING_REVIEW app can be reviewed; this one is ${app.status}`)
    return app
  }

  fastify.get('/apps', {
    schema: { tags, security, summary: 'Review queue', querystring: ReviewQueueQuery, response: { 200: Paginated(ReviewedApp), ...errorResponses(400, 401, 403) } }
  }, async (request) => {
    const { page, limit, offset } = pageWindow(request.query)
    const where = and(eq(apps.status, request.query.status ?? 'PENDING_REVIEW'))
    const [rows, total] = await Promise.all([
      fastify.db.select().from(apps).where(where).orderBy(asc(apps.submittedAt), asc(apps.id)).limit(limit).offset(offset),
      countRows(fastify.db, apps, where)
    ])
    return { data: rows.map(withAdded), total, page, limit }
  })

  fastify.get('/apps/:appId', {
    schema: { tags, security, summary: 'One app with its manifest', params: AppIdParams, response: { 200: ReviewedApp, ...errorResponses(401, 403, 404) } }
  }, async (request) => {
    const app = await fastify.apps.findById(fastify.db, request.params.appId)
    if (app === null) throw notFound('App')
    return withAdded(app)
  })

  fastify.post('/apps/:appId/approve', {
    // notes are optional, so a bare POST with no body is an approval too
    preValidation: async (request) => { request.body ??= {} },
    schema: {
      tags, security, summary: 'Approve: publish, snapshot approvedScopes, convert test installs, flag re-consent when scopes grew',
      params: AppIdParams, body: Type.Object({ notes: Type.Optional(Type.String({ maxLength: 5000 })) }, { additionalProperties: false }),
      response: { 200: AppSchema, ...errorResponses(400, 401, 403, 404, 409) }
    }
  }, async (request) => {
    const approved = await fastify.db.transaction(async (tx) => {
      const app = await pending(tx, request.params.appId)
      const now = new Date()
      const [updated] = await tx.update(apps).set({
        status: 'APPROVED', isPublished: true, approvedScopes: app.scopes, reviewNotes: request.body.notes ?? null,
        publishedAt: app.publishedAt ?? now, updatedAt: now
      }).where(eq(apps.id, app.id)).returning()
      await fastify.apps.recordVersion(tx, updated, 'APPROVED', request.user.sub, [], request.body.notes ?? null)
      for (const listener of fastify.onAppApproved) await listener(tx, updated, app.approvedScopes)
      return updated
    })
    request.log.info({ appId: approved.id }, 'app approved')
    return publicApp(approved)
  })

  fastify.post('/apps/:appId/reject', {
    schema: {
      tags, security, summary: 'Reject with notes (back to DRAFT; a published app stays published)',
      params: AppIdParams, body: Type.Object({ notes: Type.String({ minLength: 1, maxLength: 5000, description: 'What the developer must change' }) }, { additionalProperties: false }),
      response: { 200: AppSchema, ...errorResponses(400, 401, 403, 404, 409) }
    }
  }, async (request) => {
    const rejected = await fastify.db.transaction(async (tx) => {
      const app = await pending(tx, request.params.appId)
      const [updated] = await tx.update(apps).set({ status: 'DRAFT', reviewNotes: request.body.notes, updatedAt: new Date() }).where(eq(apps.id, app.id)).returning()
      await fastify.apps.recordVersion(tx, updated, 'REJECTED', request.user.sub, [], request.body.notes)
      return updated
    })
    request.log.info({ appId: rejected.id }, 'app rejected')
    return publicApp(rejected)
  })
}

export default reviewRoutes
