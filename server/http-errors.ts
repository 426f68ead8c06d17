import { STATUS_CODES } from 'node:http'

/**
 * A capability's stable error codes (DESIGN §21): snake_case code → when it is sent, in one line.
 * Each capability declares its own in `errors.ts` (`export const ERROR_CODES = defineErrors({...})`);
 * `npm run openapi` gathers them into the contract (sdk/src/contract/error-codes.ts), which the
 * OpenAPI document, the SDK's `ErrorCode` union and the admin UI read.
 */
export type ErrorCatalog = Record<string, string>

/** Keeps the catalog's literal keys, so helpers typed by it refuse a code it does not declare. */
export const defineErrors = <const C extends ErrorCatalog>(catalog: C): C => catalog

/** Codes of the framework's own answers, usable by every capability. */
export const ERROR_CODES = defineErrors({
  validation_failed: 'The request does not fit the schema or a field rule; `errors` lists each problem with its path',
  malformed_json: 'The body is not valid JSON, or empty where JSON is expected',
  json_too_deep: 'The body nests objects or arrays deeper than 32 levels',
  nul_character: 'A parameter, query value or body string holds a NUL character',
  malformed_url: 'The URL could not be routed (a path segment is not valid percent-encoding)',
  payload_too_large: 'The body is larger than the endpoint accepts',
  unsupported_media_type: 'The Content-Type is not one the endpoint accepts',
  not_acceptable: 'The Accept header asks for nothing the endpoint serves',
  bad_request: 'A request the framework refused before any route ran',
  not_found: 'No route at this path (or not on this origin)',
  method_not_allowed: 'The path exists but not with this method; `Allow` lists the methods it has',
  rate_limited: 'Too many requests in the window; `Retry-After` says when to retry',
  service_busy: 'No database connection came free in time; retry after `Retry-After` seconds',
  cursor_invalid: 'The `before` or `cursor` cursor is not one this list gave out (or was given for another filter): pass its `nextCursor` as it was',
  internal_error: 'An unexpected failure; the message names the request id that was logged',
  metrics_forbidden: 'Metrics are served to loopback only unless METRICS_TOKEN is set',
  metrics_token_missing: 'The metrics endpoint needs METRICS_TOKEN as a bearer token',
  metrics_token_invalid: 'The bearer token is not METRICS_TOKEN',
  // codes of one item of `errors`, by the schema keyword the field failed
  field_required: 'A required field is missing',
  field_type: 'A field has the wrong JSON type',
  field_too_small: 'A number is below its minimum',
  field_too_large: 'A number is above its maximum',
  field_too_short: 'A string is shorter than its minimum length',
  field_too_long: 'A string is longer than its maximum length',
  field_too_few: 'A list has fewer items than its minimum',
  field_too_many: 'A list has more items than its maximum',
  field_pattern: 'A string does not match its pattern',
  field_format: 'A string is not in its format (date-time, email, uri, …)',
  field_not_allowed: 'A value is not one of the allowed values',
  field_unknown: 'A field the schema does not know (bodies refuse unknown fields)',
  field_invalid: 'A field breaks another rule of its schema'
})

export type ServerErrorCode = keyof typeof ERROR_CODES

/** One problem of a 400 that lists several: where it is (a JSON Pointer into `in`, the body by default), what is wrong and its code. */
export interface ErrorItem {
  in?: 'body' | 'querystring' | 'params' | 'headers'
  path: string
  message: string
  code: string
}

/** An error that becomes the spec's error body, {statusCode, error, message}, plus its stable `code` (+ extra fields). */
export class HttpError extends Error {
  readonly statusCode: number
  readonly code: string
  readonly extra: Record<string, unknown>
  readonly headers: Record<string, string>

  constructor (statusCode: number, code: string, message: string, extra: Record<string, unknown> = {}, headers: Record<string, string> = {}) {
    super(message)
    this.name = 'HttpError'
    this.statusCode = statusCode
    this.code = code
    this.extra = extra
    this.headers = headers
  }
}

export function errorBody (statusCode: number, code: ServerErrorCode, message: string, extra: Record<string, unknown> = {}) {
  return { statusCode, error: STATUS_CODES[statusCode] ?? 'Error', message, code: code as string, ...extra }
}

/** The body of an HttpError (its code may be any capability's). */
export const httpErrorBody = (error: HttpError) =>
  ({ statusCode: error.statusCode, error: STATUS_CODES[error.statusCode] ?? 'Error', message: error.message, code: error.code, ...error.extra })

/** RFC 6750 §3 challenges of the App API and /webhooks, so standard clients know to re-authorize or which scope to ask for. */
export const BEARER_REALM = 'app-api'

/**
 * The error helpers of a capability, typed by its catalog (and the server's codes): a code it does
 * not declare does not compile.
 */
export function errorHelpers<const C extends ErrorCatalog> (_catalog: C) {
  type Code = (keyof C & string) | ServerErrorCode
  return {
    httpError: (statusCode: number, code: Code, message: string, extra?: Record<string, unknown>, headers?: Record<string, string>) =>
      new HttpError(statusCode, code, message, extra, headers),
    badRequest: (code: Code, message: string, extra?: Record<string, unknown>) => new HttpError(400, code, message, extra),
    /** A 400 about one field: `errors` names it, so a form marks the field with `message`. */
    fieldError: (code: Code, path: string, message: string, summary = `body${path} ${message}`) =>
      new HttpError(400, 'validation_failed', summary, { errors: [{ in: 'body', path, message, code }] }),
    unauthorized: (code: Code, message = 'Missing or invalid credentials') => new HttpError(401, code, message),
    forbidden: (code: Code, message: string) => new HttpError(403, code, message),
    notFound: (code: Code, what: string) => new HttpError(404, code, `${what} not found`),
    conflict: (code: Code, message: string, extra?: Record<string, unknown>) => new HttpError(409, code, message, extra),
    unprocessable: (code: Code, message: string, extra?: Record<string, unknown>) => new HttpError(422, code, message, extra),
    tooManyRequests: (code: Code, message: string, headers?: Record<string, string>) => new HttpError(429, code, message, {}, headers),
    invalidToken: (code: Code, message: string) =>
      new HttpError(401, code, message, {}, { 'www-authenticate': `Bearer realm="${BEARER_REALM}", error="invalid_token"` }),
    /** RFC 6750 §3.1: a request with no credentials at all gets the bare challenge, without an error code. */
    missingToken: (code: Code, message: string) =>
      new HttpError(401, code, message, {}, { 'www-authenticate': `Bearer realm="${BEARER_REALM}"` }),
    insufficientScope: (code: Code, scope: string, message: string) =>
      new HttpError(403, code, message, {}, { 'www-authenticate': `Bearer realm="${BEARER_REALM}", error="insufficient_scope", scope="${scope}"` })
  }
}

export const { httpError, badRequest, forbidden, notFound, tooManyRequests } = errorHelpers(ERROR_CODES)
