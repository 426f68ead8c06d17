import { Type, type Static } from '@sinclair/typebox'
import { PaginationQuery } from '../../server/schemas.ts'
import { EventNameSchema } from '../../sdk/src/contract/schemas.ts'
import { DeliveryStatus } from '../../sdk/src/contract/resources.ts'

// the resources webhook management answers with are the contract's (sdk/src/contract/resources.ts; DESIGN §16)
export {
  CreatedWebhookRegistrationSchema as WebhookCreatedSchema, DeliveryAttemptSchema as AttemptSchema, DeliverySchema, DeliveryWithAttemptsSchema,
  RedeliveredSchema, ReplayedSchema, WebhookRegistrationSchema as WebhookSchema, WebhookTestResultSchema as TestResultSchema
} from '../../sdk/src/contract/resources.ts'

export const MAX_EVENTS = 32
const Url = Type.String({ minLength: 1, maxLength: 2048, description: 'https required in production', examples: ['https://app.example.com/webhooks'] })
// the service refuses an unknown event naming it (400); the document shows the enum
const EventItem = Type.String({ minLength: 1, maxLength: 64, documentedAs: EventNameSchema })
const Events = Type.Array(EventItem, { minItems: 1, maxItems: MAX_EVENTS, description: 'Event names; each needs its scope (403 otherwise)', examples: [['order.created']] })
const Description = Type.String({ maxLength: 500 })

export const WebhookCreateSchema = Type.Object({ url: Url, events: Events, description: Type.Optional(Description) }, { title: 'CreateWebhookBody', additionalProperties: false })
export type WebhookCreate = Static<typeof WebhookCreateSchema>

export const WebhookPatchSchema = Type.Object({
  url: Type.Optional(Url),
  events: Type.Optional(Events),
  description: Type.Optional(Description),
  isActive: Type.Optional(Type.Boolean({ description: 'true re-enables an auto-disabled webhook and resets its failure count' }))
}, { title: 'UpdateWebhookBody', additionalProperties: false, minProperties: 1 })
export type WebhookPatch = Static<typeof WebhookPatchSchema>

export const WebhookParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) })
export const DeliveryParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }), deliveryId: Type.String({ minLength: 1, maxLength: 64 }) })

const Status = DeliveryStatus
export const DeliveryQuery = Type.Object({
  ...PaginationQuery().properties,
  status: Type.Optional(Status),
  event: Type.Optional(Type.String({ minLength: 1, maxLength: 64 }))
})
export type DeliveryQueryType = Static<typeof DeliveryQuery>

export const ReplaySchema = Type.Object({
  since: Type.String({ format: 'date-time', description: 'Deliveries created at or after this time' }),
  status: Type.Optional(Status)
}, { title: 'ReplayBody', additionalProperties: false })
