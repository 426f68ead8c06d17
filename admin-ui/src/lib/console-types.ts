/** Shapes of the developer console's answers: the contract's (sdk/src/contract/console.ts). */
export type {
  AppAnalytics, ConsoleWebhook, DeliveryDetail, HookCall, HookCallDetail, LiveEvent
} from '../../../sdk/src/contract/console.ts'
export type { Delivery, Replayed, WebhookTestResult } from '../../../sdk/src/contract/resources.ts'
export { ANALYTICS_PERIODS } from '../../../sdk/src/contract/console.ts'

/** A page of a console log (deliveries, hook calls): the envelope and the next page's keyset cursor. */
export interface LogPage<T> { data: T[], total: number, page: number, limit: number, nextCursor: string | null }
export { HOOK_POINTS } from '../../../sdk/src/contract/events.ts'
