export * from './users.ts'
export * from './commerce.ts'
export * from './outbox.ts'
export * from './apps.ts'
