/** Browser entry (`@app-platform/sdk/browser`): the iframe protocols only, no node built-ins. */
export * from './iframe.ts'
export { WEBHOOK_EVENTS, HOOK_POINTS } from './events.ts'
export type { WebhookEventName, HookPointName } from './events.ts'
