import Fastify, { type FastifyServerOptions } from 'fastify'
import type { FetchLike } from '@app-platform/sdk'
import { bundleBrowserScripts, STYLESHEET } from './assets.ts'
import { createContext, type Context, type Urls } from './context.ts'
import { openStore, type Credentials } from './store.ts'
import installRoutes from './routes/install.ts'
import platformRoutes from './routes/platform.ts'
import storefrontRoutes from './routes/storefront.ts'
import adminRoutes from './routes/admin.ts'
import payRoutes from './routes/pay.ts'
import billingRoutes from './routes/billing.ts'

export interface ReferenceAppOptions extends Urls {
  /** Where installations.json lives (the demo uses $DATA_DIR/example-app). */
  dataDir: string
  /** The app's client id and secret; otherwise the ones saved in the store earlier. */
  credentials?: Credentials
  logger?: FastifyServerOptions['logger']
  /** A pino logger to log through instead (the platform's demo passes a child of its own). */
  loggerInstance?: FastifyServerOptions['loggerInstance']
  /** The network, for the OAuth exchange and the App API (default: global fetch). */
  fetch?: FetchLike
  now?: () => Date
}

/** Pages of our own: scripts and styles from this origin only, forms posting back here. */
const PAGE_POLICY = "default-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; form-action 'self'; base-uri 'none'; object-src 'none'"

/**
 * The reference app as a fastify instance that does not listen yet. `app.reference.urls` may be
 * changed after listen (port 0) and `app.reference.store` holds what it keeps.
 */
export async function buildReferenceApp (options: ReferenceAppOptions) {
  const store = openStore(options.dataDir, options.now)
  if (options.credentials !== undefined) store.setCredentials(options.credentials)
  const urls: Urls = { appUrl: options.appUrl, platformUrl: options.platformUrl, adminUrl: options.adminUrl }
  const context = createContext(urls, store, { now: options.now, fetch: options.fetch })
  const scripts = await bundleBrowserScripts()

  const app = options.loggerInstance !== undefined ? Fastify({ loggerInstance: options.loggerInstance }) : Fastify({ logger: options.logger ?? false })
  app.decorate('reference', { urls, store, context })
  app.addHook('onSend', async (_request, reply) => {
    if (String(reply.getHeader('content-type') ?? '').startsWith('text/html') && !reply.hasHeader('content-security-policy')) {
      reply.header('content-security-policy', PAGE_POLICY)
    }
    reply.header('x-content-type-options', 'nosniff')
  })

  app.get('/health', async () => ({ status: 'ok' }))
  app.get('/assets/app.css', async (_request, reply) => reply.type('text/css; charset=utf-8').send(STYLESHEET))
  app.get<{ Params: { name: string } }>('/assets/:name', async (request, reply) => {
    const script = scripts.get(request.params.name)
    if (script === undefined) return reply.code(404).send({ statusCode: 404, error: 'Not Found', message: 'No such asset' })
    return reply.type('text/javascript; charset=utf-8').send(script)
  })

  await app.register(installRoutes, { context })
  await app.register(platformRoutes, { context })
  await app.register(storefrontRoutes, { context })
  await app.register(adminRoutes, { context })
  await app.register(payRoutes, { context })
  await app.register(billingRoutes, { context })
  return app
}

declare module 'fastify' {
  interface FastifyInstance {
    /** `context` is what the routes share: the store, the URLs and each installation's App API client. */
    reference: { urls: Urls, store: ReturnType<typeof openStore>, context: Context }
  }
}

export type ReferenceApp = Awaited<ReturnType<typeof buildReferenceApp>>
