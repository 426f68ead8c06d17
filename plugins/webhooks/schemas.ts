import { Type, type Static } from '@sinclair/typebox'
import { PaginationQuery } from '../../server/schemas.ts'
import { EventNameSchema, EventNameValue, webhookRegistrationExample } from '../../sdk/src/contract/index.ts'
import { DELIVERY_STATUSES } from '../../server/db/schema/index.ts'

export const MAX_EVENTS = 32
const Url = Type.String({ minLength: 1, maxLength: 2048, description: 'https required in production', examples: ['https://app.example.com/webhooks'] })
// the service refuses an unknown event naming it (400); the document shows the enum
const EventItem = Type.String({ minLength: 1, maxLength: 64, documentedAs: EventNameSchema })
const Events = Type.Array(EventItem, { minItems: 1, maxItems: MAX_EVENTS, description: 'Event names; each needs its scope (403 otherwise)', examples: [['order.created']] })
const Description = Type.String({ maxLength: 500 })
const Nullable = <T extends ReturnType<typeof Type.String> | ReturnType<typeof Type.Integer>>(schema: T) => Type.Union([schema, Type.Null()])

export const WebhookCreateSchema = Type.Object({ url: Url, events: Events, description: Type.Optional(Description) }, { title: 'CreateWebhookBody', additionalProperties: false })
export type WebhookCreate = Static<typeof WebhookCreateSchema>

export const WebhookPatchSchema = Type.Object({
  url: Type.Optional(Url),
  events: Type.Optional(Events),
  description: Type.Optional(Description),
  isActive: Type.Optional(Type.Boolean({ description: 'true re-enables an auto-disabled webhook and resets its failure count' }))
}, { title: 'UpdateWebhookBody', additionalProperties: false, minProperties: 1 })
export type WebhookPatch = Static<typeof WebhookPatchSchema>

export const WebhookSchema = Type.Object({
  id: Type.String(),
  url: Type.String(),
  events: Type.Array(EventNameValue),
  description: Type.String(),
  isActive: Type.Boolean(),
  disabledReason: Nullable(Type.String()),
  consecutiveFailures: Type.Integer({ description: 'Failed deliveries in a row; auto-disable at WEBHOOK_DISABLE_AFTER_FAILURES' }),
  isAppWebhook: Type.Boolean({ description: "The app's own webhook, created at install from its webhookUrl" }),
  createdAt: Type.String({ format: 'date-time' }),
  updatedAt: Type.String({ format: 'date-time' })
}, { title: 'WebhookRegistration', examples: [webhookRegistrationExample] })
export const WebhookCreatedSchema = Type.Intersect([WebhookSchema, Type.Object({ secret: Type.String({ description: 'Signing secret, shown only here', examples: ['whsec_…'] }) })], { title: 'CreatedWebhookRegistration' })

export const WebhookParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) })
export const DeliveryParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }), deliveryId: Type.String({ minLength: 1, maxLength: 64 }) })

const Status = Type.Union(DELIVERY_STATUSES.map((s) => Type.Literal(s)))
export const DeliveryQuery = Type.Object({
  ...PaginationQuery().properties,
  status: Type.Optional(Status),
  event: Type.Optional(Type.String({ minLength: 1, maxLength: 64 }))
})
export type DeliveryQueryType = Static<typeof DeliveryQuery>

export const AttemptSchema = Type.Object({
  attempt: Type.Integer(),
  statusCode: Nullable(Type.Integer()),
  durationMs: Type.Integer(),
  error: Nullable(Type.String()),
  responseSnippet: Nullable(Type.String({ description: 'First 1 KB of the answer' })),
  createdAt: Type.String({ format: 'date-time' })
}, { title: 'DeliveryAttempt' })

export const DeliverySchema = Type.Object({
  id: Type.String({ description: 'X-Service-Event-Id: the same on every retry and redelivery' }),
  webhookId: Type.String(),
  installationId: Type.String(),
  businessId: Type.String(),
  event: Type.String(),
  status: Status,
  attemptCount: Type.Integer(),
  lastStatusCode: Nullable(Type.Integer()),
  lastError: Nullable(Type.String()),
  lastDurationMs: Nullable(Type.Integer()),
  nextAttemptAt: Nullable(Type.String({ format: 'date-time' })),
  createdAt: Type.String({ format: 'date-time' }),
  completedAt: Nullable(Type.String({ format: 'date-time' }))
}, { title: 'Delivery' })
export const DeliveryWithAttemptsSchema = Type.Intersect([DeliverySchema, Type.Object({ attempts: Type.Array(AttemptSchema) })], { title: 'DeliveryWithAttempts' })

export const TestResultSchema = Type.Object({
  success: Type.Boolean(),
  statusCode: Nullable(Type.Integer({ description: 'null when no answer came (connection error, timeout)' })),
  durationMs: Type.Integer(),
  error: Type.Optional(Type.String())
}, { title: 'WebhookTestResult' })

export const RedeliveredSchema = Type.Object({ deliveryId: Type.String(), status: Type.Literal('PENDING') })
export const ReplaySchema = Type.Object({
  since: Type.String({ format: 'date-time', description: 'Deliveries created at or after this time' }),
  status: Type.Optional(Status)
}, { title: 'ReplayBody', additionalProperties: false })
export const ReplayedSchema = Type.Object({
  queued: Type.Integer({ minimum: 0, maximum: 1000, description: 'Deliveries queued by this call (at most 1 000)' }),
  remaining: Type.Integer({ minimum: 0, description: 'Matching deliveries this call did not queue' }),
  nextSince: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], { description: 'Call again with this `since` to go on; null when none remain' })
}, { title: 'Replayed' })
