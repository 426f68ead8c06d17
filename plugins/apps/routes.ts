import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import multipart from '@fastify/multipart'
import { Type } from '@sinclair/typebox'
import { Paginated, PaginationQuery, errorResponses } from '../../server/schemas.ts'
import { badRequest } from './errors.ts'
import type { AppsRouteOptions } from './service.ts'
import { replyEvent, reviewEvents } from './review-thread.ts'
import { MAX_MEDIA_BYTES, sniffImage } from './media.ts'
import {
  AppIdParams, AppSchema, CreateAppBodySchema, CreatedAppSchema, MAX_SCREENSHOTS, MediaQuery, MediaResponseSchema, MediaUploadBodySchema,
  ReviewEventSchema, ReviewReplyBodySchema, UpdateAppBodySchema, VersionSchema
} from './schemas.ts'

const security = [{ developerJwt: [] }]
const tags = ['portal']

/** /developer/apps: a developer's own apps. Another developer's app is a 404. */
const portalRoutes: FastifyPluginAsyncTypebox<AppsRouteOptions> = async (fastify, { apps, auth, guards }) => {
  const authorNames = auth.namesOf
  fastify.addHook('onRequest', guards.requireRole('DEVELOPER'))
  await fastify.register(multipart, { limits: { fileSize: MAX_MEDIA_BYTES, files: 1, fields: 0, parts: 1 } })

  fastify.post('/', {
    schema: {
      tags, security, operationId: 'createApp', summary: 'Create an app', description: 'Returns the app and its client secret. The secret is shown only in this response. `pricing` follows the rules of PATCH.',
      body: CreateAppBodySchema, response: { 201: CreatedAppSchema, ...errorResponses(400, 401, 403, 409) }
    }
  }, async (request, reply) => {
    const { app, clientSecret } = await apps.create(request.user.sub, request.body)
    request.log.info({ appId: app.id }, 'app created')
    return reply.code(201).send({ app: apps.view(app), clientSecret })
  })

  fastify.get('/', {
    schema: { tags, security, operationId: 'listApps', summary: 'List my apps', querystring: PaginationQuery(), response: { 200: Paginated(AppSchema), ...errorResponses(400, 401, 403) } }
  }, async (request) => {
    const { rows, total, page, limit } = await apps.list(request.user.sub, request.query)
    return { data: rows.map(apps.view), total, page, limit }
  })

  fastify.get('/:appId', {
    schema: { tags, security, operationId: 'getApp', summary: 'Get one of my apps (never the secret)', params: AppIdParams, response: { 200: AppSchema, ...errorResponses(401, 403, 404) } }
  }, async (request) => apps.view(await apps.ownedApp(request.user.sub, request.params.appId)))

  fastify.patch('/:appId', {
    schema: {
      tags, security, operationId: 'updateApp', summary: 'Edit an app',
      description: '409 while PENDING_REVIEW; 400 when slug is sent, or when `pricing` breaks a rule (`errors` names each plan field: ids unique in the app, every price and usage cap in the platform\'s `billingCurrency`, an `interval` on RECURRING plans, no `interval`, `trialDays` or `usage` on ONE_TIME ones). On a published app, adding scopes or changing the pricing moves it to DRAFT (submit it for review) while the listing keeps its approved scopes and pricing; other edits apply at once and are recorded in the version history.',
      params: AppIdParams, body: UpdateAppBodySchema, response: { 200: AppSchema, ...errorResponses(400, 401, 403, 404, 409) }
    }
  }, async (request) => apps.view(await apps.update(request.user.sub, request.params.appId, request.body)))

  fastify.delete('/:appId', {
    schema: {
      tags, security, operationId: 'deleteApp', summary: 'Delete a draft app',
      description: 'Only an app that was never published and is not pending review (409 otherwise). Its test installs end at once (tokens revoked, webhooks off, blocks off the sandbox pages; no data-erasure notice: the sandbox is the developer’s own), and its manifest, history, review replies, media and client credentials are deleted.',
      params: AppIdParams, response: { 204: Type.Null(), ...errorResponses(401, 403, 404, 409) }
    }
  }, async (request, reply) => {
    const deleted = await apps.deleteDraft(request.user.sub, request.params.appId, apps.onAppDeleting)
    request.log.info({ appId: deleted.id }, 'draft app deleted')
    return await reply.code(204).send(null)
  })

  fastify.get('/:appId/review-history', {
    schema: {
      tags, security, operationId: 'listAppReviewHistory', summary: 'The review record: submissions, decisions with notes, live edits and replies, newest first',
      params: AppIdParams, querystring: PaginationQuery(), response: { 200: Paginated(ReviewEventSchema), ...errorResponses(400, 401, 403, 404) }
    }
  }, async (request) => {
    const app = await apps.ownedApp(request.user.sub, request.params.appId)
    const { items, total, page, limit } = await apps.reviewThread.history(app.id, request.query)
    return { data: await reviewEvents(items, authorNames), total, page, limit }
  })

  fastify.post('/:appId/review-replies', {
    schema: {
      tags, security, operationId: 'replyToReview', summary: 'Reply to the reviewer',
      description: 'Adds to the review thread, which the developer and the reviewers see; 409 before any review decision.',
      params: AppIdParams, body: ReviewReplyBodySchema, response: { 201: ReviewEventSchema, ...errorResponses(400, 401, 403, 404, 409) }
    }
  }, async (request, reply) => {
    const app = await apps.ownedApp(request.user.sub, request.params.appId)
    const row = await apps.reviewThread.reply(app, { id: request.user.sub, role: 'DEVELOPER' }, request.body.body)
    const [event] = await reviewEvents([replyEvent(row)], authorNames)
    return reply.code(201).send(event)
  })

  fastify.post('/:appId/submit', {
    schema: { tags, security, operationId: 'submitApp', summary: 'Submit for review (DRAFT → PENDING_REVIEW)', description: 'Also starts an app check run of the submitted version (GET /review/apps/:appId/checks); its outcome never blocks the submission.', params: AppIdParams, response: { 200: AppSchema, ...errorResponses(401, 403, 404, 409) } }
  }, async (request) => {
    const submitted = await apps.submit(request.user.sub, request.params.appId)
    for (const listener of apps.onAppSubmitted) await listener(submitted, { userId: request.user.sub, businessId: request.user.businessId })
    return apps.view(submitted)
  })

  fastify.post('/:appId/client-secret', {
    schema: {
      tags, security, operationId: 'regenerateClientSecret', summary: 'Regenerate the client secret', description: 'The old secret stops working at once.',
      params: AppIdParams, response: { 200: Type.Object({ clientSecret: Type.String() }), ...errorResponses(401, 403, 404) }
    }
  }, async (request) => {
    const clientSecret = await apps.regenerateSecret(request.user.sub, request.params.appId)
    request.log.info({ appId: request.params.appId }, 'client secret regenerated')
    return { clientSecret }
  })

  fastify.get('/:appId/versions', {
    schema: { tags, security, operationId: 'listAppVersions', summary: 'Version history', params: AppIdParams, querystring: PaginationQuery(), response: { 200: Paginated(VersionSchema), ...errorResponses(400, 401, 403, 404) } }
  }, async (request) => await apps.versions(request.user.sub, request.params.appId, request.query))

  fastify.post('/:appId/media', {
    schema: {
      tags, security, operationId: 'uploadAppMedia', summary: 'Upload the icon or a screenshot',
      description: `multipart/form-data with one file: PNG, JPEG or WebP (sniffed), at most 1 MB; at most ${MAX_SCREENSHOTS} screenshots.`,
      params: AppIdParams, querystring: MediaQuery, consumes: ['multipart/form-data'], body: MediaUploadBodySchema,
      response: { 201: MediaResponseSchema, ...errorResponses(400, 401, 403, 404, 409, 413) }
    }
  }, async (request, reply) => {
    const app = await apps.ownedApp(request.user.sub, request.params.appId)
    apps.assertEditable(app)
    if (!request.isMultipart()) throw badRequest('upload_not_multipart', 'Send the image as multipart/form-data')
    const file = await request.file()
    if (file === undefined) throw badRequest('upload_file_missing', 'No file in the upload')
    const bytes = await file.toBuffer()
    const contentType = sniffImage(bytes)
    if (contentType === null) throw badRequest('upload_not_image', 'The file is not a PNG, JPEG or WebP image')
    const kind = request.query.kind
    if (kind === 'screenshot' && app.screenshots.length >= MAX_SCREENSHOTS) throw badRequest('screenshot_limit', `An app has at most ${MAX_SCREENSHOTS} screenshots`)
    const { url, app: updated } = await apps.addMedia(app, kind, contentType, bytes)
    return reply.code(201).send({ url, kind, app: apps.view(updated) })
  })
}

export default portalRoutes
