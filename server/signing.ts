import { createHmac } from 'node:crypto'

/** Sent with every webhook delivery and hook call. */
export const USER_AGENT = 'Service-Webhooks/1.0'

/** `sha256=<lowercase hex HMAC-SHA256 of "<timestamp>.<rawBody>">`, as webhooks and hooks are signed. */
export function signature (secret: string, timestamp: number, rawBody: string): string {
  return `sha256=${createHmac('sha256', secret).update(`${timestamp}.${rawBody}`).digest('hex')}`
}

export const unixSeconds = (date = new Date()): number => Math.floor(date.getTime() / 1000)

/** A compact JWT signed HS256 (the admin-page session tokens): header and claims base64url-encoded JSON. */
export function signJwtHs256 (claims: Record<string, unknown>, secret: string): string {
  const encode = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url')
  const body = `${encode({ alg: 'HS256', typ: 'JWT' })}.${encode(claims)}`
  return `${body}.${createHmac('sha256', secret).update(body).digest('base64url')}`
}
