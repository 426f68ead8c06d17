import { STATUS_CODES } from 'node:http'

/** An error that becomes the spec's error body: {statusCode, error, message} (+ extra fields). */
export class HttpError extends Error {
  readonly statusCode: number
  readonly extra: Record<string, unknown>
  readonly headers: Record<string, string>

  constructor (statusCode: number, message: string, extra: Record<string, unknown> = {}, headers: Record<string, string> = {}) {
    super(message)
    this.name = 'HttpError'
    this.statusCode = statusCode
    this.extra = extra
    this.headers = headers
  }
}

export function errorBody (statusCode: number, message: string, extra: Record<string, unknown> = {}) {
  return { statusCode, error: STATUS_CODES[statusCode] ?? 'Error', message, ...extra }
}

export const badRequest = (message: string, extra?: Record<string, unknown>) => new HttpError(400, message, extra)
export const unauthorized = (message = 'Missing or invalid credentials') => new HttpError(401, message)
export const forbidden = (message: string) => new HttpError(403, message)
export const notFound = (what: string) => new HttpError(404, `${what} not found`)
export const conflict = (message: string) => new HttpError(409, message)
export const unprocessable = (message: string, extra?: Record<string, unknown>) => new HttpError(422, message, extra)

/** RFC 6750 §3 challenges of the App API and /webhooks, so standard clients know to re-authorize or which scope to ask for. */
export const BEARER_REALM = 'app-api'
export const invalidToken = (message: string) =>
  new HttpError(401, message, {}, { 'www-authenticate': `Bearer realm="${BEARER_REALM}", error="invalid_token"` })
/** RFC 6750 §3.1: a request with no credentials at all gets the bare challenge, without an error code. */
export const missingToken = (message: string) =>
  new HttpError(401, message, {}, { 'www-authenticate': `Bearer realm="${BEARER_REALM}"` })
export const insufficientScope = (scope: string, message: string) =>
  new HttpError(403, message, {}, { 'www-authenticate': `Bearer realm="${BEARER_REALM}", error="insufficient_scope", scope="${scope}"` })
