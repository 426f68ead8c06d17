/**
 * The contract of the API, one source for the server (validation, OpenAPI), the SDK and the admin UI
 * (DESIGN §16 "Contract source"). Free of server code. The lists (scopes, categories, events, hook
 * points) need no dependency; their TypeBox schemas are in schemas.ts, the resources the API answers with in resources.ts. test/contract/drift.test.ts
 * fails when a list defined here is written out anywhere else.
 */
export * from './scopes.ts'
export * from './categories.ts'
export * from './events.ts'
export * from './schemas.ts'
export * from './examples.ts'
export * from './resources.ts'
export * from './webhook-bodies.ts'
export * from './console.ts'
export * from './error-codes.ts'
export * from './billing.ts'
export * from './apps.ts'
export * from './bulk-exports.ts'
export * from './staff.ts'
export * from './activity.ts'
