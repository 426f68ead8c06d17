import { createHmac } from 'node:crypto'

/** Sent with every webhook delivery and hook call. */
export const USER_AGENT = 'Service-Webhooks/1.0'

/** `sha256=<lowercase hex HMAC-SHA256 of "<timestamp>.<rawBody>">`, as webhooks and hooks are signed. */
export function signature (secret: string, timestamp: number, rawBody: string): string {
  return `sha256=${createHmac('sha256', secret).update(`${timestamp}.${rawBody}`).digest('hex')}`
}

/**
 * The Standard Webhooks signing key: the base64 bytes after the secret's `whsec_` prefix (a test
 * install's `whsec_test_` counts as the prefix, since the spec fixes that marker).
 */
export function standardWebhooksKey (secret: string): Buffer {
  const encoded = secret.replace(/^whsec_(?:test_)?/, '')
  return Buffer.from(encoded, 'base64')
}

/** `v1,<base64 HMAC-SHA256 of "<id>.<timestamp>.<rawBody>">` (Standard Webhooks). */
export function standardWebhooksSignature (secret: string, id: string, timestamp: number, rawBody: string): string {
  return `v1,${createHmac('sha256', standardWebhooksKey(secret)).update(`${id}.${timestamp}.${rawBody}`).digest('base64')}`
}

/** The signature headers of one request under the given scheme (DESIGN §21); `id` is the delivery or call id. */
export function signatureHeaders (scheme: 'spec' | 'standard-webhooks', input: { secret: string, id: string, timestamp: number, rawBody: string }): Record<string, string> {
  if (scheme === 'standard-webhooks') {
    return {
      'webhook-id': input.id,
      'webhook-timestamp': String(input.timestamp),
      'webhook-signature': standardWebhooksSignature(input.secret, input.id, input.timestamp, input.rawBody)
    }
  }
  return { 'x-webhook-timestamp': String(input.timestamp), 'x-webhook-signature': signature(input.secret, input.timestamp, input.rawBody) }
}

export const unixSeconds = (date: Date): number => Math.floor(date.getTime() / 1000)

/** A compact JWT signed HS256 (the admin-page session tokens): header and claims base64url-encoded JSON. */
export function signJwtHs256 (claims: Record<string, unknown>, secret: string): string {
  const encode = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url')
  const body = `${encode({ alg: 'HS256', typ: 'JWT' })}.${encode(claims)}`
  return `${body}.${createHmac('sha256', secret).update(body).digest('base64url')}`
}
