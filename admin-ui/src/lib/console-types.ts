/** Shapes of the developer console's answers: the contract's (sdk/src/contract/console.ts). */
export type {
  AppAnalytics, ConsoleWebhook, DeliveryDetail, HookCall, HookCallDetail, LiveEvent
} from '../../../sdk/src/contract/console.ts'
export type { Delivery, Replayed, WebhookTestResult } from '../../../sdk/src/contract/resources.ts'
export { ANALYTICS_PERIODS } from '../../../sdk/src/contract/console.ts'
export { HOOK_POINTS } from '../../../sdk/src/contract/events.ts'
