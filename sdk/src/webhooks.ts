import { createHmac, timingSafeEqual } from 'node:crypto'
import type { HookPointName, WebhookEventName } from './events.ts'

/** Header names of webhook deliveries and hook calls (lower-case; header lookup is case-insensitive). */
export const SIGNATURE_HEADER = 'x-webhook-signature'
export const TIMESTAMP_HEADER = 'x-webhook-timestamp'
export const EVENT_ID_HEADER = 'x-service-event-id'
export const WEBHOOK_ID_HEADER = 'x-webhook-id'
export const EVENT_HEADER = 'x-webhook-event'
/** Standard Webhooks headers (https://www.standardwebhooks.com), sent when the registration or app chose that scheme. */
export const STANDARD_ID_HEADER = 'webhook-id'
export const STANDARD_TIMESTAMP_HEADER = 'webhook-timestamp'
export const STANDARD_SIGNATURE_HEADER = 'webhook-signature'

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

/** The Standard Webhooks key: the base64 bytes after `whsec_` (a test install's `whsec_test_` counts as the prefix). */
function standardKey (secret: string): Buffer {
  return Buffer.from(secret.replace(/^whsec_(?:test_)?/, ''), 'base64')
}

function standardDigest (rawBody: string | Buffer, secret: string, id: string, timestamp: string): Buffer {
  const hmac = createHmac('sha256', standardKey(secret))
  hmac.update(`${id}.${timestamp}.`)
  hmac.update(rawBody)
  return hmac.digest()
}

/** The webhook-signature value (Standard Webhooks: `v1,<base64>` over "<id>.<timestamp>.<body>"); for tests and local tooling. */
export function signStandardWebhook (rawBody: string | Buffer, secret: string, id: string, timestamp: number | string): string {
  return `v1,${standardDigest(rawBody, secret, id, String(timestamp)).toString('base64')}`
}

/** The X-Webhook-Signature value for a body; for app authors' own tests and local tooling. */
export function signWebhook (rawBody: string | Buffer, secret: string, timestamp: number | string): string {
  return SIGNATURE_PREFIX + hmacHex(rawBody, secret, String(timestamp))
}

/**
 * Headers that make a request pass verifyWebhook / verifyHookRequest; for tests and local tooling.
 * `standard`: sign as the `standard-webhooks` scheme does, with this message id.
 */
export function signedHeaders (
  rawBody: string | Buffer, secret: string, timestamp = Math.floor(Date.now() / 1000), standard?: { id: string }
): Record<string, string> {
  if (standard !== undefined) {
    return {
      'content-type': 'application/json',
      [STANDARD_ID_HEADER]: standard.id,
      [STANDARD_TIMESTAMP_HEADER]: String(timestamp),
      [STANDARD_SIGNATURE_HEADER]: signStandardWebhook(rawBody, secret, standard.id, timestamp)
    }
  }
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
 * Checks signature (either scheme: a webhook-signature header means Standard Webhooks, else the
 * spec's X-Webhook-Signature) and freshness, then parses the JSON body. The signature is checked first, so
 * `stale_timestamp` is only ever reported for an authentic (replayed or delayed) request.
 */
function verifySigned (rawBody: string | Buffer, headers: HeaderBag, secret: string, options: VerifyOptions): Record<string, unknown> {
  if (typeof secret !== 'string' || secret.length === 0) throw new TypeError('a non-empty secret is required')
  const tolerance = normaliseTolerance(options.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS)
  const timestamp = getHeader(headers, STANDARD_SIGNATURE_HEADER) !== undefined
    ? verifyStandardSignature(rawBody, headers, secret)
    : verifySpecSignature(rawBody, headers, secret)

  const nowSeconds = Math.floor((options.now ?? new Date()).getTime() / 1000)
  if (Math.abs(nowSeconds - Number(timestamp)) > tolerance) {
    throw new WebhookVerificationError('stale_timestamp', `The signed timestamp is more than ${tolerance} s away from now`)
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

/** The spec's scheme: X-Webhook-Signature `sha256=<hex>` over "<X-Webhook-Timestamp>.<body>". Returns the timestamp. */
function verifySpecSignature (rawBody: string | Buffer, headers: HeaderBag, secret: string): string {
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
  return timestamp
}

const BASE64_SHA256 = /^[A-Za-z0-9+/]{43}=$/

/**
 * Standard Webhooks: webhook-signature lists `v1,<base64>` signatures (space-separated, for key
 * rotation) over "<webhook-id>.<webhook-timestamp>.<body>"; one match is enough. Returns the timestamp.
 */
function verifyStandardSignature (rawBody: string | Buffer, headers: HeaderBag, secret: string): string {
  const id = getHeader(headers, STANDARD_ID_HEADER)?.trim()
  if (id === undefined || id === '') throw new WebhookVerificationError('missing_signature', 'webhook-id header is missing')
  const timestamp = getHeader(headers, STANDARD_TIMESTAMP_HEADER)?.trim()
  if (timestamp === undefined || timestamp === '') throw new WebhookVerificationError('missing_timestamp', 'webhook-timestamp header is missing')
  if (!UNIX_SECONDS.test(timestamp)) throw new WebhookVerificationError('missing_timestamp', 'webhook-timestamp is not a Unix time in seconds')
  const expected = standardDigest(rawBody, secret, id, timestamp)
  const signatures = (getHeader(headers, STANDARD_SIGNATURE_HEADER) ?? '').trim().split(/\s+/)
  const matches = signatures.some((entry) => {
    const [version, value] = entry.split(',')
    // the format check keeps timingSafeEqual on two 32-byte buffers
    return version === 'v1' && value !== undefined && BASE64_SHA256.test(value) && timingSafeEqual(Buffer.from(value, 'base64'), expected)
  })
  if (!matches) throw new WebhookVerificationError('bad_signature', 'No webhook-signature matches the body')
  return timestamp
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
  const eventId = (getHeader(headers, EVENT_ID_HEADER) ?? getHeader(headers, STANDARD_ID_HEADER))?.trim()
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
