import {
  createHookReceiver, createWebhookReceiver,
  type HookRequestHandler, type ReceiverOptions, type ReceiverResponse, type WebhookEventHandler, type WebhookReceiverOptions
} from './receiver.ts'
import type { HeaderBag } from './webhooks.ts'

/*
 * Fastify plugins for webhook deliveries and hook calls. fastify is not a dependency of the SDK:
 * the plugins are written against the few members they use, which a real FastifyInstance has.
 * They are plain (not fastify-plugin wrapped) functions, so the raw-body content-type parser
 * they add stays inside their own encapsulation context and leaves the app's JSON parsing alone.
 */

export interface FastifyRequestLike {
  body: unknown
  headers: HeaderBag
}

export interface FastifyReplyLike {
  code (statusCode: number): unknown
}

type ParserDone = (error: Error | null, body?: unknown) => void

export interface FastifyInstanceLike {
  addContentTypeParser (
    contentType: string,
    options: { parseAs: 'buffer', bodyLimit?: number },
    parser: (request: any, body: Buffer, done: ParserDone) => void
  ): unknown
  post (path: string, handler: (request: any, reply: any) => Promise<unknown>): unknown
}

interface RouteOptions {
  /** Route path inside the plugin's prefix, default '/'. */
  path?: string
  /** Body limit in bytes for this route (fastify's default applies when omitted). */
  bodyLimit?: number
}

export interface WebhookPluginOptions extends WebhookReceiverOptions, RouteOptions {
  secret: string
  onEvent: WebhookEventHandler
}

export interface HookPluginOptions extends ReceiverOptions, RouteOptions {
  secret: string
  onHook: HookRequestHandler
}

function rawJsonRoute (options: RouteOptions, receive: (rawBody: Buffer, headers: HeaderBag) => Promise<ReceiverResponse>) {
  return async function plugin (fastify: FastifyInstanceLike): Promise<void> {
    // Keep the exact bytes: the signature covers the raw body, not a re-serialised object.
    fastify.addContentTypeParser('application/json', { parseAs: 'buffer', bodyLimit: options.bodyLimit }, (_request, body, done) => {
      done(null, body)
    })
    fastify.post(options.path ?? '/', async (request: FastifyRequestLike, reply: FastifyReplyLike) => {
      const rawBody = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0)
      const { statusCode, body } = await receive(rawBody, request.headers)
      reply.code(statusCode)
      return body
    })
  }
}

/**
 * A fastify plugin receiving webhook deliveries at `path`:
 *
 *   app.register(webhookPlugin({ secret, onEvent: async (event) => { ... } }), { prefix: '/webhooks' })
 */
export function webhookPlugin (options: WebhookPluginOptions) {
  return rawJsonRoute(options, createWebhookReceiver(options.secret, options.onEvent, options))
}

/** A fastify plugin answering one hook point at `path` with the JSON that `onHook` returns. */
export function hookPlugin (options: HookPluginOptions) {
  return rawJsonRoute(options, createHookReceiver(options.secret, options.onHook, options))
}
