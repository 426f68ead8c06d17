import { buildReferenceApp } from './app.ts'

/*
 * The app on its own: `npm start` in examples/reference-app, against a platform you point it at.
 * The platform's demo runs it inside `npm start` instead (server/main.ts), with these set for it.
 */
const env = process.env
const port = Number(env.PORT ?? 3002)
const required = ['PLATFORM_URL', 'CLIENT_ID', 'CLIENT_SECRET'].filter((name) => env[name] === undefined || env[name] === '')
if (required.length > 0) {
  console.error(`Set ${required.join(', ')} (and APP_URL, PLATFORM_ADMIN_URL, DATA_DIR when they differ from the defaults): see README.md`)
  process.exit(1)
}
const platformUrl = (env.PLATFORM_URL as string).replace(/\/$/, '')
const app = await buildReferenceApp({
  appUrl: (env.APP_URL ?? `http://localhost:${port}`).replace(/\/$/, ''),
  platformUrl,
  adminUrl: (env.PLATFORM_ADMIN_URL ?? platformUrl).replace(/\/$/, ''),
  dataDir: env.DATA_DIR ?? './data',
  credentials: { clientId: env.CLIENT_ID as string, clientSecret: env.CLIENT_SECRET as string },
  logger: { level: env.LOG_LEVEL ?? 'info' }
})
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => { void app.close() })
await app.listen({ port, host: env.HOST ?? '127.0.0.1' })
