import { DeliveryDeduper } from './dedupe.ts'
import {
  verifyHookRequest, verifyWebhook, WebhookVerificationError,
  type HeaderBag, type HookRequest, type WebhookEvent
} from './webhooks.ts'

/** Framework-neutral core of the webhook and hook handlers in node-http.ts and fastify.ts. */

export interface ReceiverOptions {
  /** Freshness window in seconds (default 300). */
  toleranceSeconds?: number
  /** Clock, for tests. */
  now?: () => Date
  /** Called with any error thrown by the app's handler (the response is then a 500). */
  onError?: (error: unknown) => void
}

export interface WebhookReceiverOptions extends ReceiverOptions {
  /**
   * Deduplication by X-Service-Event-Id: `true` (default) remembers the last 1000 delivery ids,
   * a number sets that size, a DeliveryDeduper can be shared between handlers, `false` turns it off.
   */
  dedupe?: boolean | number | DeliveryDeduper
}

export interface ReceiverResponse {
  statusCode: number
  body: Record<string, unknown>
}

export type WebhookEventHandler = (event: WebhookEvent) => void | Promise<void>
export type HookRequestHandler = (request: HookRequest) => unknown

function errorBody (statusCode: number, error: string, message: string): ReceiverResponse {
  return { statusCode, body: { statusCode, error, message } }
}

/** 401 for a bad or missing signature or a stale timestamp (spec, Errors); 400 for a signed but malformed body. */
function rejection (error: unknown): ReceiverResponse | null {
  if (!(error instanceof WebhookVerificationError)) return null
  return error.reason === 'malformed_body'
    ? errorBody(400, 'Bad Request', error.message)
    : errorBody(401, 'Unauthorized', error.message)
}

function handlerFailure (error: unknown, onError: ReceiverOptions['onError']): ReceiverResponse {
  onError?.(error)
  // A non-2xx makes the platform retry; the app's error details stay private.
  return errorBody(500, 'Internal Server Error', 'webhook handler failed')
}

function toDeduper (dedupe: WebhookReceiverOptions['dedupe']): DeliveryDeduper | null {
  if (dedupe === false) return null
  if (dedupe instanceof DeliveryDeduper) return dedupe
  return new DeliveryDeduper(typeof dedupe === 'number' ? dedupe : undefined)
}

/** Verifies a delivery, runs `onEvent` once per delivery id, and says what to answer. */
export function createWebhookReceiver (secret: string, onEvent: WebhookEventHandler, options: WebhookReceiverOptions = {}) {
  if (typeof secret !== 'string' || secret === '') throw new TypeError('a non-empty webhook secret is required')
  const deduper = toDeduper(options.dedupe)
  return async function receive (rawBody: string | Buffer, headers: HeaderBag): Promise<ReceiverResponse> {
    let event: WebhookEvent
    try {
      event = verifyWebhook(rawBody, headers, secret, { toleranceSeconds: options.toleranceSeconds, now: options.now?.() })
    } catch (error) {
      const response = rejection(error)
      if (response === null) throw error
      return response
    }
    try {
      const ran = deduper === null ? (await onEvent(event), true) : await deduper.run(event.eventId, () => onEvent(event))
      return { statusCode: 200, body: { received: true, duplicate: !ran } }
    } catch (error) {
      return handlerFailure(error, options.onError)
    }
  }
}

/** Verifies a hook call and answers 200 with the JSON that `onHook` returns. */
export function createHookReceiver (secret: string, onHook: HookRequestHandler, options: ReceiverOptions = {}) {
  if (typeof secret !== 'string' || secret === '') throw new TypeError('a non-empty webhook secret is required')
  return async function receive (rawBody: string | Buffer, headers: HeaderBag): Promise<ReceiverResponse> {
    let request: HookRequest
    try {
      request = verifyHookRequest(rawBody, headers, secret, { toleranceSeconds: options.toleranceSeconds, now: options.now?.() })
    } catch (error) {
      const response = rejection(error)
      if (response === null) throw error
      return response
    }
    try {
      const answer = await onHook(request)
      return { statusCode: 200, body: (answer ?? {}) as Record<string, unknown> }
    } catch (error) {
      return handlerFailure(error, options.onError)
    }
  }
}
