export * from './users.ts'
export * from './commerce.ts'
export * from './outbox.ts'
