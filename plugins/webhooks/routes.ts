import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from '@sinclair/typebox'
import { Paginated, PaginationQuery, errorResponses } from '../../server/schemas.ts'
import {
  DeliveryParams, DeliveryQuery, DeliveryWithAttemptsSchema, RedeliveredSchema, ReplaySchema, ReplayedSchema, TestResultSchema,
  WebhookCreateSchema, WebhookCreatedSchema, WebhookParams, WebhookPatchSchema, WebhookSchema, WebhookUpdatedSchema
} from './schemas.ts'
import type { Webhooks } from './service.ts'

const tags = ['webhooks']
const security = [{ appToken: [] }]

/**
 * /webhooks: registrations of the token's installation. Registered inside the app scope, so the
 * token check and the per-installation rate limit are the App API's.
 */
const webhookRoutes: FastifyPluginAsyncTypebox<{ webhooks: Webhooks }> = async (fastify, { webhooks: service }) => {
  fastify.post('/', {
    schema: {
      tags, security, operationId: 'createWebhook', summary: 'Register a webhook',
      description: 'The secret (whsec_ followed by base64, so Standard Webhooks libraries take it as given) signs every delivery and is returned only here. `signatureScheme` chooses the headers: `spec` (default, X-Webhook-Signature) or `standard-webhooks` (webhook-id, webhook-timestamp, webhook-signature). Unknown event → 400; an event whose scope was not granted → 403.',
      body: WebhookCreateSchema, response: { 201: WebhookCreatedSchema, ...errorResponses(400, 401, 403, 409, 429) }
    }
  }, async (request, reply) => reply.code(201).send(await service.create(request.installation, request.body)))

  fastify.get('/', {
    schema: { tags, security, operationId: 'listWebhooks', summary: "The installation's webhooks (never their secrets)", description: 'Every registration of the token\'s installation, the app\'s own one included; secrets are shown only at creation.', querystring: PaginationQuery(), response: { 200: Paginated(WebhookSchema), ...errorResponses(400, 401, 429) } }
  }, async (request) => await service.list(request.installation, request.query))

  fastify.get('/:id', {
    schema: { tags, security, operationId: 'getWebhook', summary: 'A webhook', description: 'A registration of the token\'s installation; another installation\'s is a 404.', params: WebhookParams, response: { 200: WebhookSchema, ...errorResponses(401, 404, 429) } }
  }, async (request) => await service.show(request.installation, request.params.id))

  fastify.patch('/:id', {
    schema: {
      tags, security, operationId: 'updateWebhook', summary: 'Change a webhook', description: "isActive true re-enables an auto-disabled webhook and resets its failure count. signatureScheme switches how later attempts are signed (400 on the app's own webhook, which follows the app's webhookSignatureScheme). A switch to standard-webhooks on a test install whose secret carries the spec's whsec_test_ marker issues a new whsec_ + base64 secret, returned once here as `secret` (Standard Webhooks libraries cannot read the marker); otherwise the secret stays and the answer has none.",
      params: WebhookParams, body: WebhookPatchSchema, response: { 200: WebhookUpdatedSchema, ...errorResponses(400, 401, 403, 404, 429) }
    }
  }, async (request) => await service.update(request.installation, request.params.id, request.body))

  fastify.delete('/:id', {
    schema: { tags, security, operationId: 'deleteWebhook', summary: 'Delete a webhook', description: 'Its delivery log is kept; pending deliveries end as failed.', params: WebhookParams, response: { 204: Type.Null(), ...errorResponses(401, 404, 429) } }
  }, async (request, reply) => {
    await service.remove(request.installation, request.params.id)
    return reply.code(204).send(null)
  })

  fastify.post('/:id/test', {
    schema: {
      tags, security, operationId: 'testWebhook', summary: 'Send a webhook.test event now', description: 'Synchronous: answers with the outcome of the one attempt (no retries).',
      params: WebhookParams, response: { 200: TestResultSchema, ...errorResponses(401, 404, 409, 429) }
    }
  }, async (request) => await service.test(request.installation, request.params.id))

  fastify.get('/:id/deliveries', {
    schema: { tags, security, operationId: 'listWebhookDeliveries', summary: 'Delivery log of a webhook, newest first, with every attempt', description: 'Each delivery with its attempts (status code, duration, error, the first 1 KB of the answer), filterable by status and event; kept DELIVERY_LOG_RETENTION_DAYS. `total` counts at most 10 000 deliveries.', params: WebhookParams, querystring: DeliveryQuery, response: { 200: Paginated(DeliveryWithAttemptsSchema), ...errorResponses(400, 401, 404, 429) } }
  }, async (request) => await service.deliveries(request.installation, request.params.id, request.query))

  fastify.post('/:id/deliveries/:deliveryId/redeliver', {
    schema: {
      tags, security, operationId: 'redeliverWebhookDelivery', summary: 'Send a delivery again', description: 'Same X-Service-Event-Id, fresh retry schedule. 409 while it is being attempted or when the webhook is inactive.',
      params: DeliveryParams, response: { 202: RedeliveredSchema, ...errorResponses(401, 404, 409, 429) }
    }
  }, async (request, reply) => reply.code(202).send(await service.redeliver(request.installation, request.params.id, request.params.deliveryId)))

  fastify.post('/:id/replay', {
    schema: {
      tags, security, operationId: 'replayWebhookDeliveries', summary: 'Send again every delivery since a time', description: 'Optionally only those with a status. Event ids are kept.',
      params: WebhookParams, body: ReplaySchema, response: { 202: ReplayedSchema, ...errorResponses(400, 401, 404, 409, 429) }
    }
  }, async (request, reply) => reply.code(202).send(await service.replay(request.installation, request.params.id, request.body)))
}

export default webhookRoutes
