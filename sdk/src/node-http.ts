import type { IncomingMessage, ServerResponse } from 'node:http'
import {
  createHookReceiver, createWebhookReceiver,
  type HookRequestHandler, type ReceiverOptions, type ReceiverResponse, type WebhookEventHandler, type WebhookReceiverOptions
} from './receiver.ts'

/** Largest accepted body; the platform's own request limit (DESIGN §13) is 1 MB. */
export const DEFAULT_MAX_BODY_BYTES = 1024 * 1024

export interface BodyLimitOptions {
  maxBodyBytes?: number
}

class BodyTooLargeError extends Error {}

/** Reads the exact request bytes, which the signature covers. */
export function readRawBody (req: IncomingMessage, maxBytes = DEFAULT_MAX_BODY_BYTES): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    let size = 0
    const onData = (chunk: Buffer): void => {
      size += chunk.length
      if (size > maxBytes) {
        // Stop buffering; the 413 goes out with `connection: close`, which ends the socket.
        req.off('data', onData)
        req.resume()
        reject(new BodyTooLargeError(`body larger than ${maxBytes} bytes`))
        return
      }
      chunks.push(chunk)
    }
    req.on('data', onData)
    req.on('end', () => resolve(Buffer.concat(chunks)))
    req.on('error', reject)
  })
}

function send (res: ServerResponse, { statusCode, body }: ReceiverResponse, extraHeaders: Record<string, string> = {}): void {
  const payload = JSON.stringify(body)
  res.writeHead(statusCode, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(payload), ...extraHeaders })
  res.end(payload)
}

function adapt (receive: (rawBody: Buffer, headers: IncomingMessage['headers']) => Promise<ReceiverResponse>, maxBodyBytes: number) {
  return async function handle (req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (req.method !== 'POST') {
      send(res, { statusCode: 405, body: { statusCode: 405, error: 'Method Not Allowed', message: 'use POST' } }, { allow: 'POST' })
      return
    }
    let rawBody: Buffer
    try {
      rawBody = await readRawBody(req, maxBodyBytes)
    } catch (error) {
      if (error instanceof BodyTooLargeError) {
        send(res, { statusCode: 413, body: { statusCode: 413, error: 'Payload Too Large', message: error.message } }, { connection: 'close' })
      } else {
        res.destroy()
      }
      return
    }
    let response: ReceiverResponse
    try {
      response = await receive(rawBody, req.headers)
    } catch {
      // Only a misconfiguration (e.g. a negative toleranceSeconds) gets here; never leave the request hanging.
      response = { statusCode: 500, body: { statusCode: 500, error: 'Internal Server Error', message: 'webhook receiver misconfigured' } }
    }
    send(res, response)
  }
}

/**
 * A node:http request listener for webhook deliveries: reads the raw body, verifies it, answers
 * 401 on a bad signature or stale timestamp, calls `onEvent` once per X-Service-Event-Id and
 * answers 200 (500 if `onEvent` throws, so the platform retries).
 *
 *   http.createServer(webhookHandler(process.env.WEBHOOK_SECRET!, async (event) => { ... }))
 */
export function webhookHandler (secret: string, onEvent: WebhookEventHandler, options: WebhookReceiverOptions & BodyLimitOptions = {}) {
  return adapt(createWebhookReceiver(secret, onEvent, options), options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES)
}

/** A node:http request listener for one hook point: verifies the call and answers with `onHook`'s JSON. */
export function hookHandler (secret: string, onHook: HookRequestHandler, options: ReceiverOptions & BodyLimitOptions = {}) {
  return adapt(createHookReceiver(secret, onHook, options), options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES)
}
