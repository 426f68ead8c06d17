import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from '@sinclair/typebox'
import { Paginated, PaginationQuery, errorResponses } from '../../server/schemas.ts'
import { notFound } from './errors.ts'
import { AppIdParams, AppSchema, ReviewDiffSchema, ReviewEventSchema, ReviewReplyBodySchema } from './schemas.ts'
import { addedScopes, pricingChanged, type AppRow, type AppsRouteOptions } from './service.ts'
import { replyEvent, reviewEvents, snapshotOf, type AppSnapshot } from './review-thread.ts'

const security = [{ developerJwt: [] }]
const tags = ['review']

const ReviewQueueQuery = Type.Intersect([
  PaginationQuery(),
  Type.Object({ status: Type.Optional(Type.Union([Type.Literal('PENDING_REVIEW'), Type.Literal('APPROVED'), Type.Literal('DRAFT')], { default: 'PENDING_REVIEW' })) })
])
const ReviewedApp = Type.Intersect([AppSchema, Type.Object({
  addedScopes: Type.Array(Type.String(), { description: 'Scopes this submission adds to the approved set' }),
  pricingChanged: Type.Boolean({ description: 'The pricing differs from the approved one (the diff shows how)' })
})])

/** /review/apps: the review queue, for REVIEWERs. Oldest submission first. */
const reviewRoutes: FastifyPluginAsyncTypebox<AppsRouteOptions> = async (fastify, { apps, auth, guards }) => {
  const authorNames = auth.namesOf
  fastify.addHook('onRequest', guards.requireRole('REVIEWER'))
  const withAdded = (row: AppRow) => ({ ...apps.view(row), addedScopes: addedScopes(row), pricingChanged: pricingChanged(row) })

  fastify.get('/apps', {
    schema: { tags, security, operationId: 'listReviewQueue', summary: 'Review queue', querystring: ReviewQueueQuery, response: { 200: Paginated(ReviewedApp), ...errorResponses(400, 401, 403) } }
  }, async (request) => {
    const { rows, total, page, limit } = await apps.reviewQueue(request.query)
    return { data: rows.map(withAdded), total, page, limit }
  })

  fastify.get('/apps/:appId', {
    schema: { tags, security, operationId: 'getReviewApp', summary: 'One app with its manifest', params: AppIdParams, response: { 200: ReviewedApp, ...errorResponses(401, 403, 404) } }
  }, async (request) => withAdded(await reviewedApp(request.params.appId)))

  async function reviewedApp (appId: string): Promise<AppRow> {
    const app = await apps.findById(appId)
    if (app === null) throw notFound('app_not_found', 'App')
    return app
  }

  fastify.get('/apps/:appId/diff', {
    schema: {
      tags, security, operationId: 'getReviewDiff', summary: 'The submitted listing and manifest beside the last approved ones',
      description: 'The client renders the difference; `baseline` is null for an app never approved.',
      params: AppIdParams, response: { 200: ReviewDiffSchema, ...errorResponses(401, 403, 404) }
    }
  }, async (request) => {
    const app = await reviewedApp(request.params.appId)
    const baseline = await apps.reviewThread.approvedBaseline(app.id)
    const approved = baseline?.snapshot == null
      ? null
      : { version: baseline.version, approvedAt: baseline.createdAt.toISOString(), snapshot: baseline.snapshot as AppSnapshot }
    return { baseline: approved, current: snapshotOf(app) }
  })

  fastify.get('/apps/:appId/history', {
    schema: {
      tags, security, operationId: 'getReviewHistory', summary: 'Decision history and the reply thread, newest first',
      params: AppIdParams, querystring: PaginationQuery(), response: { 200: Paginated(ReviewEventSchema), ...errorResponses(400, 401, 403, 404) }
    }
  }, async (request) => {
    const app = await reviewedApp(request.params.appId)
    const { items, total, page, limit } = await apps.reviewThread.history(app.id, request.query)
    return { data: await reviewEvents(items, authorNames), total, page, limit }
  })

  fastify.post('/apps/:appId/replies', {
    schema: {
      tags, security, operationId: 'replyAsReviewer', summary: 'Reply in the review thread (the developer sees it on the app’s Review tab)',
      params: AppIdParams, body: ReviewReplyBodySchema, response: { 201: ReviewEventSchema, ...errorResponses(400, 401, 403, 404) }
    }
  }, async (request, reply) => {
    const app = await reviewedApp(request.params.appId)
    const row = await apps.reviewThread.reply(app, { id: request.user.sub, role: 'REVIEWER' }, request.body.body)
    const [event] = await reviewEvents([replyEvent(row)], authorNames)
    return reply.code(201).send(event)
  })

  fastify.post('/apps/:appId/approve', {
    // notes are optional, so a bare POST with no body is an approval too
    preValidation: async (request) => { request.body ??= {} },
    schema: {
      tags, security, operationId: 'approveApp', summary: 'Approve: publish, snapshot approvedScopes, convert test installs, flag re-consent when scopes grew',
      params: AppIdParams, body: Type.Object({ notes: Type.Optional(Type.String({ maxLength: 5000 })) }, { additionalProperties: false }),
      response: { 200: AppSchema, ...errorResponses(400, 401, 403, 404, 409) }
    }
  }, async (request) => {
    const approved = await apps.approve(request.user.sub, request.params.appId, request.body.notes ?? null, apps.onAppApproved)
    request.log.info({ appId: approved.id }, 'app approved')
    return apps.view(approved)
  })

  fastify.post('/apps/:appId/reject', {
    schema: {
      tags, security, operationId: 'rejectApp', summary: 'Reject with notes (back to DRAFT; a published app stays published)',
      params: AppIdParams, body: Type.Object({ notes: Type.String({ minLength: 1, maxLength: 5000, description: 'What the developer must change' }) }, { additionalProperties: false }),
      response: { 200: AppSchema, ...errorResponses(400, 401, 403, 404, 409) }
    }
  }, async (request) => {
    const rejected = await apps.reject(request.user.sub, request.params.appId, request.body.notes)
    request.log.info({ appId: rejected.id }, 'app rejected')
    return apps.view(rejected)
  })
}

export default reviewRoutes
