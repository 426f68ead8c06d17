import { createHmac } from 'node:crypto'

/** Sent with every webhook delivery and hook call. */
export const USER_AGENT = 'Service-Webhooks/1.0'

/** `sha256=<lowercase hex HMAC-SHA256 of "<timestamp>.<rawBody>">`, as webhooks and hooks are signed. */
export function signature (secret: string, timestamp: number, rawBody: string): string {
  return `sha256=${createHmac('sha256', secret).update(`${timestamp}.${rawBody}`).digest('hex')}`
}

export const unixSeconds = (date = new Date()): number => Math.floor(date.getTime() / 1000)
