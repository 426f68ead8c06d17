/**
 * The contract of the API, one source for the server (validation, OpenAPI), the SDK and the admin UI
 * (DESIGN §16 "Contract source"). Free of server code. test/contract/drift.test.ts fails when a list
 * defined here is written out anywhere else.
 */
export * from './enum.ts'
export * from './scopes.ts'
export * from './categories.ts'
export * from './events.ts'
