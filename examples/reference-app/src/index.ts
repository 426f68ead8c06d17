/** The reference app as a library: the platform's demo (server/main.ts) and the tests start it from here. */
export { buildReferenceApp, type ReferenceApp, type ReferenceAppOptions } from './app.ts'
export { appDefinition, type AppDefinition } from './manifest.ts'
export type { Credentials, Installation } from './store.ts'
export type { Urls } from './context.ts'
export * as rules from './checkout-rules.ts'
