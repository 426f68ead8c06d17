import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Paginated, errorResponses } from '../../server/schemas.ts'
import { badRequest, notFound } from './errors.ts'
import { AppIdParams } from '../apps/schemas.ts'
import { CheckRunSchema, CheckRunSummarySchema, RunParams, RunsQuery, StartedRunSchema } from './schemas.ts'
import type { AppChecks, AppChecksNeeds } from './service.ts'

const CHECKS_DESCRIPTION = 'Runs the app checks (DESIGN §18) against the app\'s installation on your sandbox business, installed for the run when there is none: ' +
  'redirect URL, install entry, webhook signatures, webhook.test, business.data_erasure, each hook, the framing of blocks, embeds and admin pages, ' +
  'script embeds, the admin-page bridge and the scopes used. Every call goes under the outbound URL policy with the real timeouts. ' +
  'Answers at once with the run\'s id; poll GET …/checks/:runId. 409 while another run of the app is RUNNING.'

/** /developer/apps/:appId/checks: the developer runs the checks and reads the runs, per version. */
export const developerCheckRoutes: FastifyPluginAsyncTypebox<Pick<AppChecksNeeds, 'apps' | 'guards'> & { appChecks: AppChecks }> = async (fastify, { apps, guards, appChecks }) => {
  const tags = ['portal']
  const security = [{ developerJwt: [] }]
  fastify.addHook('onRequest', guards.requireRole('DEVELOPER'))

  fastify.post('/:appId/checks', {
    schema: {
      tags, security, operationId: 'startAppChecks', summary: 'Run the app checks', description: CHECKS_DESCRIPTION,
      params: AppIdParams, response: { 202: StartedRunSchema, ...errorResponses(400, 401, 403, 404, 409) }
    }
  }, async (request, reply) => {
    const app = await apps.ownedApp(request.user.sub, request.params.appId)
    if (request.user.businessId === null) throw badRequest('sandbox_missing', 'Your account has no sandbox business')
    const checkRunId = await appChecks.start(app, { businessId: request.user.businessId, userId: request.user.sub }, 'developer')
    request.log.info({ appId: app.id, checkRunId }, 'app checks started')
    return reply.code(202).send({ checkRunId })
  })

  fastify.get('/:appId/checks', {
    schema: {
      tags, security, operationId: 'listAppCheckRuns', summary: 'The app\'s check runs, newest first', description: 'Without results: read one run for them. ?version= keeps one version\'s runs.',
      params: AppIdParams, querystring: RunsQuery, response: { 200: Paginated(CheckRunSummarySchema), ...errorResponses(400, 401, 403, 404) }
    }
  }, async (request) => {
    const app = await apps.ownedApp(request.user.sub, request.params.appId)
    return await appChecks.list(app.id, request.query)
  })

  fastify.get('/:appId/checks/:runId', {
    schema: {
      tags, security, operationId: 'getAppCheckRun', summary: 'One check run with its results, failures first',
      params: RunParams, response: { 200: CheckRunSchema, ...errorResponses(401, 403, 404) }
    }
  }, async (request) => {
    const app = await apps.ownedApp(request.user.sub, request.params.appId)
    return await appChecks.get(app.id, request.params.runId)
  })
}

/** /review/apps/:appId/checks: what the reviewer sees first. */
export const reviewCheckRoutes: FastifyPluginAsyncTypebox<Pick<AppChecksNeeds, 'apps' | 'guards'> & { appChecks: AppChecks }> = async (fastify, { apps, guards, appChecks }) => {
  fastify.addHook('onRequest', guards.requireRole('REVIEWER'))

  fastify.get('/apps/:appId/checks', {
    schema: {
      tags: ['review'], security: [{ developerJwt: [] }], operationId: 'getReviewAppChecks', summary: 'The latest check run of the submitted version',
      description: 'Failures first. 404 when the app has no run for its current version.',
      params: AppIdParams, response: { 200: CheckRunSchema, ...errorResponses(401, 403, 404) }
    }
  }, async (request) => {
    const app = await apps.findById(request.params.appId)
    if (app === null) throw notFound('app_not_found', 'App')
    const run = await appChecks.latest(app.id, app.version)
    if (run === null) throw notFound('check_run_not_found', 'Check run for this version')
    return run
  })
}
