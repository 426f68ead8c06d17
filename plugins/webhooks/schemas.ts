import { Type, type Static } from '@sinclair/typebox'
import { PaginationQuery } from '../../server/schemas.ts'
import { DeliveryStatus } from '../../sdk/src/contract/resources.ts'

// the resources webhook management answers with are the contract's (sdk/src/contract/resources.ts; DESIGN §16)
export {
  CreatedWebhookRegistrationSchema as WebhookCreatedSchema, DeliveryAttemptSchema as AttemptSchema, DeliverySchema, DeliveryWithAttemptsSchema,
  RedeliveredSchema, ReplayedSchema, UpdatedWebhookRegistrationSchema as WebhookUpdatedSchema, WebhookRegistrationSchema as WebhookSchema,
  WebhookTestResultSchema as TestResultSchema
} from '../../sdk/src/contract/resources.ts'

// the request bodies are the contract's too, shared with the SDK client
export {
  CreateWebhookBodySchema as WebhookCreateSchema, UpdateWebhookBodySchema as WebhookPatchSchema, ReplayBodySchema as ReplaySchema,
  MAX_WEBHOOK_EVENTS as MAX_EVENTS, type CreateWebhookBody as WebhookCreate, type UpdateWebhookBody as WebhookPatch
} from '../../sdk/src/contract/webhook-bodies.ts'

export const WebhookParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) })
export const DeliveryParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }), deliveryId: Type.String({ minLength: 1, maxLength: 64 }) })

const Status = DeliveryStatus
export const DeliveryQuery = Type.Object({
  ...PaginationQuery().properties,
  status: Type.Optional(Status),
  event: Type.Optional(Type.String({ minLength: 1, maxLength: 64 }))
})
export type DeliveryQueryType = Static<typeof DeliveryQuery>

// the developer console's webhook pages answer with the contract's resources (sdk/src/contract/console.ts), which the admin UI reads too
export {
  ConsoleDeliveryQuerySchema as AppDeliveryQuery, ConsoleWebhookQuerySchema as ConsoleWebhookQuery, ConsoleWebhookSchema, DeliveryDetailSchema,
  ReEnableWebhookBodySchema as ReEnableWebhookSchema,
  ReplayPreviewQuerySchema as ReplayPreviewQuery
} from '../../sdk/src/contract/console.ts'
const ConsoleId = Type.String({ minLength: 1, maxLength: 64 })
export const AppWebhookParams = Type.Object({ appId: ConsoleId, id: ConsoleId })
export const AppDeliveryParams = Type.Object({ appId: ConsoleId, id: ConsoleId })
