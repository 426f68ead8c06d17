// One file per owning capability (docs/architecture.md): only that capability writes its tables.
export * from './auth.ts'
export * from './commerce.ts'
export * from './outbox.ts'
export * from './apps.ts'
export * from './installations.ts'
export * from './oauth.ts'
export * from './webhooks.ts'
export * from './checkout-hooks.ts'
