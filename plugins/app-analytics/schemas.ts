import { Type } from '@sinclair/typebox'
import {
  AnalyticsQuerySchema, AppAnalyticsSchema, ConsoleDeliveryQuerySchema, ConsoleWebhookSchema, DeliveryDetailSchema, HookCallDetailSchema,
  HookCallQuerySchema, HookCallSchema, LiveEventSchema, ReEnableWebhookBodySchema, ReplayPreviewQuerySchema
} from '../../sdk/src/contract/console.ts'

// what the console answers with is the contract's (sdk/src/contract/console.ts), which the admin UI reads too
export {
  AppAnalyticsSchema as AnalyticsSchema, AnalyticsQuerySchema as AnalyticsQuery, ConsoleDeliveryQuerySchema as AppDeliveryQuery, ConsoleWebhookSchema,
  DeliveryDetailSchema, HookCallDetailSchema, HookCallQuerySchema as HookCallQuery, HookCallSchema, ReEnableWebhookBodySchema as ReEnableWebhookSchema,
  ReplayPreviewQuerySchema as ReplayPreviewQuery, LiveEventSchema
}

const Id = Type.String({ minLength: 1, maxLength: 64 })
export const AppWebhookParams = Type.Object({ appId: Id, id: Id })
export const AppDeliveryParams = Type.Object({ appId: Id, id: Id })
export const AppHookCallParams = Type.Object({ appId: Id, id: Id })
