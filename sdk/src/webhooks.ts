import { createHmac, timingSafeEqual } from 'node:crypto'
import type { HookPointName, WebhookEventName } from './events.ts'

/** Header names of webhook deliveries and hook calls (lower-case; header lookup is case-insensitive). */
export const SIGNATURE_HEADER = 'x-webhook-signature'
export const TIMESTAMP_HEADER = 'x-webhook-timestamp'
export const EVENT_ID_HEADER = 'x-service-event-id'
export const WEBHOOK_ID_HEADER = 'x-webhook-id'
export const EVENT_HEADER = 'x-webhook-event'

/** Receiver default freshness window (spec, Limits: 5 minutes). */
export const DEFAULT_TOLERANCE_SECONDS = 300

const SIGNATURE_PREFIX = 'sha256='
const HEX_SHA256 = /^[0-9a-f]{64}$/
const UNIX_SECONDS = /^\d{1,12}$/

export type WebhookVerificationReason =
  | 'missing_signature'
  | 'missing_timestamp'
  | 'bad_signature'
  | 'stale_timestamp'
  | 'malformed_body'

export class WebhookVerificationError extends Error {
  readonly reason: WebhookVerificationReason
  constructor (reason: WebhookVerificationReason, message: string) {
    super(message)
    this.name = 'WebhookVerificationError'
    this.reason = reason
  }
}

/** Node's IncomingHttpHeaders, a plain record, or a fetch `Headers`. */
export type HeaderBag = Record<string, string | string[] | undefined> | Headers

export interface VerifyOptions {
  /** Largest accepted distance between X-Webhook-Timestamp and now, either way. Default 300. */
  toleranceSeconds?: number
  /** The current time; defaults to the system clock. */
  now?: Date
}

/** A verified webhook delivery: the spec's envelope plus the delivery id used for deduplication. */
export interface WebhookEvent<TData = Record<string, unknown>> {
  event: WebhookEventName
  timestamp: string
  webhookId: string
  businessId: string
  data: TData
  /** X-Service-Event-Id: identical across retries and redeliveries; null when the header is absent. */
  eventId: string | null
}

/** A verified synchronous hook call (checkout hooks). */
export interface HookRequest<TData = Record<string, unknown>> {
  hookPoint: HookPointName
  businessId: string
  timestamp: string
  data: TData
}

/** Reads one header case-insensitively; an array value (repeated header) yields its first entry. */
export function getHeader (headers: HeaderBag, name: string): string | undefined {
  const wanted = name.toLowerCase()
  if (typeof Headers !== 'undefined' && headers instanceof Headers) return headers.get(wanted) ?? undefined
  const record = headers as Record<string, string | string[] | undefined>
  for (const key of Object.keys(record)) {
    if (key.toLowerCase() !== wanted) continue
    const value = record[key]
    return Array.isArray(value) ? value[0] : value
  }
  return undefined
}

function hmacHex (rawBody: string | Buffer, secret: string, timestamp: string): string {
  const hmac = createHmac('sha256', secret)
  hmac.update(`${timestamp}.`)
  // A Buffer is signed byte for byte: decoding it first could alter non-UTF-8 bodies.
  hmac.update(rawBody)
  return hmac.digest('hex')
}

/** The X-Webhook-Signature value for a body; for app authors' own tests and local tooling. */
export function signWebhook (rawBody: string | Buffer, secret: string, timestamp: number | string): string {
  return SIGNATURE_PREFIX + hmacHex(rawBody, secret, String(timestamp))
}

/** Headers that make a request pass verifyWebhook / verifyHookRequest; for tests and local tooling. */
export function signedHeaders (rawBody: string | Buffer, secret: string, timestamp = Math.floor(Date.now() / 1000)): Record<string, string> {
  return {
    'content-type': 'application/json',
    [TIMESTAMP_HEADER]: String(timestamp),
    [SIGNATURE_HEADER]: signWebhook(rawBody, secret, timestamp)
  }
}

function normaliseTolerance (toleranceSeconds: number): number {
  if (typeof toleranceSeconds !== 'number' || Number.isNaN(toleranceSeconds) || toleranceSeconds < 0) {
    throw new TypeError('toleranceSeconds must be a non-negative number')
  }
  return toleranceSeconds
}

/**
 * Checks signature and freshness, then parses the JSON body. The signature is checked first, so
 * `stale_timestamp` is only ever reported for an authentic (replayed or delayed) request.
 */
function verifySigned (rawBody: string | Buffer, headers: HeaderBag, secret: string, options: VerifyOptions): Record<string, unknown> {
  if (typeof secret !== 'string' || secret.length === 0) throw new TypeError('a non-empty secret is required')
  const tolerance = normaliseTolerance(options.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS)

  const signature = getHeader(headers, SIGNATURE_HEADER)?.trim()
  if (signature === undefined || signature === '') {
    throw new WebhookVerificationError('missing_signature', 'X-Webhook-Signature header is missing')
  }
  const timestamp = getHeader(headers, TIMESTAMP_HEADER)?.trim()
  if (timestamp === undefined || timestamp === '') {
    throw new WebhookVerificationError('missing_timestamp', 'X-Webhook-Timestamp header is missing')
  }
  if (!UNIX_SECONDS.test(timestamp)) {
    throw new WebhookVerificationError('missing_timestamp', 'X-Webhook-Timestamp is not a Unix time in seconds')
  }

  const provided = signature.startsWith(SIGNATURE_PREFIX) ? signature.slice(SIGNATURE_PREFIX.length).toLowerCase() : ''
  // The format check keeps timingSafeEqual on two 32-byte buffers, so it never throws on length.
  if (!HEX_SHA256.test(provided)) {
    throw new WebhookVerificationError('bad_signature', 'X-Webhook-Signature is not of the form sha256=<64 hex digits>')
  }
  const expected = Buffer.from(hmacHex(rawBody, secret, timestamp), 'hex')
  if (!timingSafeEqual(Buffer.from(provided, 'hex'), expected)) {
    throw new WebhookVerificationError('bad_signature', 'X-Webhook-Signature does not match the body')
  }

  const nowSeconds = Math.floor((options.now ?? new Date()).getTime() / 1000)
  if (Math.abs(nowSeconds - Number(timestamp)) > tolerance) {
    throw new WebhookVerificationError('stale_timestamp', `X-Webhook-Timestamp is more than ${tolerance} s away from now`)
  }

  let body: unknown
  try {
    body = JSON.parse(typeof rawBody === 'string' ? rawBody : rawBody.toString('utf8'))
  } catch {
    throw new WebhookVerificationError('malformed_body', 'body is not valid JSON')
  }
  if (!isRecord(body)) throw new WebhookVerificationError('malformed_body', 'body is not a JSON object')
  return body
}

function isRecord (value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

function requireStrings (body: Record<string, unknown>, fields: readonly string[]): void {
  for (const field of fields) {
    if (typeof body[field] !== 'string' || body[field] === '') {
      throw new WebhookVerificationError('malformed_body', `body field "${field}" must be a non-empty string`)
    }
  }
  if (!isRecord(body.data)) throw new WebhookVerificationError('malformed_body', 'body field "data" must be an object')
}

/**
 * Verifies a webhook delivery (spec, Authentication rule 5) and returns its envelope.
 * Pass the exact raw body: a re-serialised JSON object will not match the signature.
 * Throws WebhookVerificationError with a `reason`.
 */
export function verifyWebhook<TData = Record<string, unknown>> (
  rawBody: string | Buffer,
  headers: HeaderBag,
  secret: string,
  options: VerifyOptions = {}
): WebhookEvent<TData> {
  const body = verifySigned(rawBody, headers, secret, options)
  requireStrings(body, ['event', 'timestamp', 'webhookId', 'businessId'])
  const eventId = getHeader(headers, EVENT_ID_HEADER)?.trim()
  return {
    event: body.event as WebhookEventName,
    timestamp: body.timestamp as string,
    webhookId: body.webhookId as string,
    businessId: body.businessId as string,
    data: body.data as TData,
    eventId: eventId === undefined || eventId === '' ? null : eventId
  }
}

/** Verifies a synchronous hook call (spec, Authentication rule 6): same signature, hook envelope. */
export function verifyHookRequest<TData = Record<string, unknown>> (
  rawBody: string | Buffer,
  headers: HeaderBag,
  secret: string,
  options: VerifyOptions = {}
): HookRequest<TData> {
  const body = verifySigned(rawBody, headers, secret, options)
  requireStrings(body, ['hookPoint', 'businessId', 'timestamp'])
  return {
    hookPoint: body.hookPoint as HookPointName,
    businessId: body.businessId as string,
    timestamp: body.timestamp as string,
    data: body.data as TData
  }
}
