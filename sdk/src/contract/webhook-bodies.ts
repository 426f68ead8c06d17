import { Type, type Static } from '@sinclair/typebox'
import { EventNameSchema, SignatureSchemeSchema, UrlField } from './schemas.ts'
import { DeliveryStatus } from './resources.ts'
import { ApiVersionField, ApiVersionSchema } from './api-version-names.ts'

/**
 * Request bodies of webhook management (POST/PATCH /webhooks, replay), one source for the server's
 * validation and OpenAPI document and the SDK client's input types (DESIGN §16 "Contract source").
 */

export const MAX_WEBHOOK_EVENTS = 32
const Url = UrlField({ description: 'https required in production', examples: ['https://app.example.com/webhooks'] })
// the server refuses an unknown event naming it (400); the document shows the enum
const EventItem = Type.String({ minLength: 1, maxLength: 64, documentedAs: EventNameSchema })
const Events = Type.Array(EventItem, { minItems: 1, maxItems: MAX_WEBHOOK_EVENTS, description: 'Event names; each needs its scope (403 otherwise)', examples: [['order.created']] })
const Description = Type.String({ maxLength: 500 })

export const CreateWebhookBodySchema = Type.Object({
  url: Url, events: Events, description: Type.Optional(Description), signatureScheme: Type.Optional(SignatureSchemeSchema),
  apiVersion: Type.Optional(ApiVersionField('The API version its deliveries are shaped for; unset: the installation\'s pinned version'))
}, { title: 'CreateWebhookBody', additionalProperties: false })
export type CreateWebhookBody = Static<typeof CreateWebhookBodySchema>

export const UpdateWebhookBodySchema = Type.Object({
  url: Type.Optional(Url),
  events: Type.Optional(Events),
  description: Type.Optional(Description),
  signatureScheme: Type.Optional(SignatureSchemeSchema),
  apiVersion: Type.Optional(Type.Union([ApiVersionSchema, Type.Null()], { description: 'null: follow the installation\'s pinned version' })),
  isActive: Type.Optional(Type.Boolean({ description: 'true re-enables an auto-disabled webhook and resets its failure count' }))
}, { title: 'UpdateWebhookBody', additionalProperties: false, minProperties: 1 })
export type UpdateWebhookBody = Static<typeof UpdateWebhookBodySchema>

export const ReplayBodySchema = Type.Object({
  since: Type.String({ format: 'date-time', description: 'Deliveries created at or after this time' }),
  status: Type.Optional(DeliveryStatus)
}, { title: 'ReplayBody', additionalProperties: false })
export type ReplayBody = Static<typeof ReplayBodySchema>
