import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Paginated, errorResponses } from '../../server/schemas.ts'
import { registerPerMinuteLimit } from '../../server/redis.ts'
import { AppIdParams } from '../apps/schemas.ts'
import { LogPage } from '../../sdk/src/contract/console.ts'
import {
  AppDeliveryParams, AppDeliveryQuery, AppWebhookParams, ConsoleWebhookQuery, ConsoleWebhookSchema, DeliveryDetailSchema, DeliverySchema, ReEnableWebhookSchema,
  RedeliveredSchema, ReplayPreviewQuery, ReplaySchema, ReplayedSchema, TestResultSchema, WebhookSchema
} from './schemas.ts'
import type { Apps } from '../apps/index.ts'
import type { Guards } from '../auth/guards.ts'
import type { Commerce } from '../commerce/index.ts'
import type { Webhooks } from './service.ts'

const tags = ['portal']
const security = [{ developerJwt: [] }]

/**
 * The console's webhook tests, and separately its replays, per developer per minute: each test is a
 * synchronous request to the app's server and each replay queues up to 1 000 deliveries, so a
 * console (or a script behind one) must not turn them into a flood.
 */
export const CONSOLE_WEBHOOK_SENDS_PER_MINUTE = 10
/** Opt-in route config: the route spends the developer's CONSOLE_WEBHOOK_SENDS_PER_MINUTE budget. */
const PER_DEVELOPER = { rateLimit: {} }

/**
 * The developer console's webhook pages for one app (DESIGN §16 "Console routes"): the registrations
 * across the app's installations, the delivery log, and the actions on them. The developer's own app
 * only (another developer's app is 404), the sandbox's test installs included.
 */
const webhookConsoleRoutes: FastifyPluginAsyncTypebox<{ apps: Pick<Apps, 'ownedApp'>, commerce: Pick<Commerce, 'businessNamesOf'>, guards: Pick<Guards, 'requireRole'>, webhooks: Webhooks }> = async (fastify, { apps, commerce, guards, webhooks }) => {
  fastify.addHook('onRequest', guards.requireRole('DEVELOPER'))
  // counted after requireRole (route hooks run after this scope's hooks): the key is the signed-in developer
  await registerPerMinuteLimit(fastify, {
    max: CONSOLE_WEBHOOK_SENDS_PER_MINUTE,
    key: (request) => request.user.sub,
    nameSpace: 'platform-console-webhook-sends-',
    refusal: (max, after, request) => `Too many webhook ${request.routeOptions.url?.endsWith('/test') === true ? 'tests' : 'replays'}: ${max} per minute per developer. Retry in ${after}.`
  })

  fastify.get('/:appId/webhooks', {
    schema: {
      tags, security, operationId: 'listAppWebhooks', summary: 'Webhook registrations of my app across its installations',
      description: 'Newest first, test installs included, each with its store\'s name and why an inactive one was disabled. `uninstalled=exclude` leaves out the registrations an uninstall switched off (`only` lists just them).',
      params: AppIdParams, querystring: ConsoleWebhookQuery, response: { 200: Paginated(ConsoleWebhookSchema), ...errorResponses(400, 401, 403, 404) }
    }
  }, async (request) => {
    const app = await apps.ownedApp(request.user.sub, request.params.appId)
    const list = await webhooks.listOfApp(app.id, request.query)
    const names = await commerce.businessNamesOf(list.data.map((row) => row.businessId))
    return { ...list, data: list.data.map((row) => ({ ...row, storeName: names.get(row.businessId) ?? null })) }
  })

  fastify.patch('/:appId/webhooks/:id', {
    schema: {
      tags, security, operationId: 'reEnableAppWebhook', summary: 'Re-enable a registration of my app',
      description: 'Only `{isActive: true}`: turns an auto-disabled registration back on and resets its failure count. 409 for a registration switched off by an uninstall.',
      params: AppWebhookParams, body: ReEnableWebhookSchema, response: { 200: WebhookSchema, ...errorResponses(400, 401, 403, 404, 409) }
    }
  }, async (request) => {
    const app = await apps.ownedApp(request.user.sub, request.params.appId)
    return await webhooks.reEnableOfApp(app.id, request.params.id)
  })

  fastify.post('/:appId/webhooks/:id/test', {
    config: PER_DEVELOPER,
    schema: {
      tags, security, operationId: 'testAppWebhook', summary: 'Send a webhook.test event to a registration of my app',
      description: 'Synchronous: answers with the outcome of the one attempt (no retries), logged like any delivery. At most 10 per minute per developer (429 with Retry-After).',
      params: AppWebhookParams, response: { 200: TestResultSchema, ...errorResponses(401, 403, 404, 409, 429) }
    }
  }, async (request) => {
    const app = await apps.ownedApp(request.user.sub, request.params.appId)
    return await webhooks.testOn(await webhooks.getOfApp(app.id, request.params.id))
  })

  fastify.post('/:appId/webhooks/:id/replay', {
    config: PER_DEVELOPER,
    schema: {
      tags, security, operationId: 'replayAppWebhook', summary: 'Send again the deliveries of a registration since a time',
      description: 'Queues at most 1 000 per call (oldest first) and says how many are left and from when to go on. `?dryRun=true` answers 200 with what the call would queue, and sends nothing. Event ids are kept. At most 10 calls per minute per developer, dry runs included (429 with Retry-After).',
      params: AppWebhookParams, querystring: ReplayPreviewQuery, body: ReplaySchema,
      response: { 200: ReplayedSchema, 202: ReplayedSchema, ...errorResponses(400, 401, 403, 404, 409, 429) }
    }
  }, async (request, reply) => {
    const app = await apps.ownedApp(request.user.sub, request.params.appId)
    const webhook = await webhooks.getOfApp(app.id, request.params.id)
    const dryRun = request.query.dryRun === true
    const result = await webhooks.replayOn(webhook, request.body, { dryRun })
    return reply.code(dryRun ? 200 : 202).send(result)
  })

  fastify.get('/:appId/deliveries', {
    schema: {
      tags, security, operationId: 'listAppDeliveries', summary: 'Webhook delivery log across the installations of my app',
      description: 'Newest first; filter by status, event, registration (webhookId) and creation time [from, to). `total` counts at most 10 000 deliveries (a bigger log says 10 000: narrow it with from/to).',
      params: AppIdParams, querystring: AppDeliveryQuery, response: { 200: LogPage(DeliverySchema), ...errorResponses(400, 401, 403, 404) }
    }
  }, async (request) => {
    const app = await apps.ownedApp(request.user.sub, request.params.appId)
    return await webhooks.deliveriesOfApp(app.id, request.query)
  })

  fastify.get('/:appId/deliveries/:id', {
    schema: {
      tags, security, operationId: 'getAppDelivery', summary: 'A delivery of my app with every attempt',
      description: 'Each attempt: the request headers as sent (signature included; the secret never), status, the first 1 KB of the answer, duration, error and the retry it scheduled. `requestBody` is the exact body every attempt sent.',
      params: AppDeliveryParams, response: { 200: DeliveryDetailSchema, ...errorResponses(401, 403, 404) }
    }
  }, async (request) => {
    const app = await apps.ownedApp(request.user.sub, request.params.appId)
    const delivery = await webhooks.deliveryOfApp(app.id, request.params.id)
    const names = await commerce.businessNamesOf([delivery.businessId])
    return { ...delivery, storeName: names.get(delivery.businessId) ?? null }
  })

  fastify.post('/:appId/deliveries/:id/redeliver', {
    schema: {
      tags, security, operationId: 'redeliverAppDelivery', summary: 'Send a delivery of my app again',
      description: 'A new attempt with the same X-Service-Event-Id and a fresh retry schedule. 409 while it is being attempted or when its registration is inactive.',
      params: AppDeliveryParams, response: { 202: RedeliveredSchema, ...errorResponses(401, 403, 404, 409) }
    }
  }, async (request, reply) => {
    const app = await apps.ownedApp(request.user.sub, request.params.appId)
    return reply.code(202).send(await webhooks.redeliverOfApp(app.id, request.params.id))
  })
}

export default webhookConsoleRoutes
