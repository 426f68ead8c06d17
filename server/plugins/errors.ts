import fp from 'fastify-plugin'
import type { FastifyError } from 'fastify'
import { HttpError, errorBody, httpErrorBody, type ServerErrorCode } from '../http-errors.ts'
import { validationItems } from '../validation.ts'
import { isPoolTimeout, isStatementTimeout } from '../db/client.ts'

/** Seconds a client is asked to wait after a 503 for a busy database pool. */
const BUSY_RETRY_AFTER_SECONDS = 1

/** Fastify's own refusals by their FST code (body parsing, content type). */
const FRAMEWORK_CODES: Record<string, ServerErrorCode> = {
  FST_ERR_CTP_BODY_TOO_LARGE: 'payload_too_large',
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'unsupported_media_type',
  FST_ERR_CTP_INVALID_TYPE: 'unsupported_media_type',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'malformed_json',
  FST_ERR_CTP_INVALID_JSON_BODY: 'malformed_json'
}

/** Any other 4xx a library answers (multipart limits, say), by status. */
const STATUS_CODES: Record<number, ServerErrorCode> = {
  404: 'not_found', 405: 'method_not_allowed', 406: 'not_acceptable', 413: 'payload_too_large', 415: 'unsupported_media_type', 429: 'rate_limited'
}

function frameworkCode (error: FastifyError, statusCode: number): ServerErrorCode {
  if (error.code !== undefined && error.code in FRAMEWORK_CODES) return FRAMEWORK_CODES[error.code]
  if (error instanceof SyntaxError) return 'malformed_json'
  return STATUS_CODES[statusCode] ?? 'bad_request'
}

/**
 * One error format for everything: validation, parser, auth, not found, 5xx, each with its stable
 * `code`. A 5xx answer names the request id and nothing else; the details go to the log.
 */
export default fp(async function errorsPlugin (fastify) {
  fastify.setErrorHandler((error: FastifyError | HttpError, request, reply) => {
    if (error instanceof HttpError) {
      for (const [name, value] of Object.entries(error.headers)) reply.header(name, value)
      return reply.code(error.statusCode).send(httpErrorBody(error))
    }
    if (error.validation !== undefined) {
      return reply.code(400).send(errorBody(400, 'validation_failed', error.message, { errors: validationItems(error.validation, error.validationContext) }))
    }
    if (isPoolTimeout(error) || isStatementTimeout(error)) {
      request.log.warn({ err: error }, isPoolTimeout(error) ? 'no database connection within DATABASE_ACQUIRE_TIMEOUT_MS' : 'a query ran past DATABASE_STATEMENT_TIMEOUT_MS')
      reply.header('retry-after', String(BUSY_RETRY_AFTER_SECONDS))
      return reply.code(503).send(errorBody(503, 'service_busy', 'The service is busy; retry shortly'))
    }
    const statusCode = typeof error.statusCode === 'number' && error.statusCode >= 400 && error.statusCode < 600 ? error.statusCode : 500
    if (statusCode >= 500) {
      request.log.error({ err: error }, 'request failed')
      return reply.code(statusCode).send(errorBody(statusCode, 'internal_error', `Internal error (request ${request.id}); it has been logged`))
    }
    return reply.code(statusCode).send(errorBody(statusCode, frameworkCode(error, statusCode), error.message))
  })
}, { name: 'errors' })
