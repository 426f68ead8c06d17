import fp from 'fastify-plugin'
import type { FastifyError } from 'fastify'
import { HttpError, errorBody } from '../http-errors.ts'
import { isPoolTimeout, isStatementTimeout } from '../db/client.ts'

/** Seconds a client is asked to wait after a 503 for a busy database pool. */
const BUSY_RETRY_AFTER_SECONDS = 1

/**
 * One error format for everything: validation, parser, auth, not found, 5xx.
 * A 5xx answer names the request id and nothing else; the details go to the log.
 */
export default fp(async function errorsPlugin (fastify) {
  fastify.setErrorHandler((error: FastifyError | HttpError, request, reply) => {
    if (error instanceof HttpError) {
      for (const [name, value] of Object.entries(error.headers)) reply.header(name, value)
      return reply.code(error.statusCode).send(errorBody(error.statusCode, error.message, error.extra))
    }
    if ((error as FastifyError).validation !== undefined) {
      return reply.code(400).send(errorBody(400, error.message))
    }
    if (isPoolTimeout(error) || isStatementTimeout(error)) {
      request.log.warn({ err: error }, isPoolTimeout(error) ? 'no database connection within DATABASE_ACQUIRE_TIMEOUT_MS' : 'a query ran past DATABASE_STATEMENT_TIMEOUT_MS')
      reply.header('retry-after', String(BUSY_RETRY_AFTER_SECONDS))
      return reply.code(503).send(errorBody(503, 'The service is busy; retry shortly'))
    }
    const statusCode = typeof error.statusCode === 'number' && error.statusCode >= 400 && error.statusCode < 600 ? error.statusCode : 500
    if (statusCode >= 500) {
      request.log.error({ err: error }, 'request failed')
      return reply.code(statusCode).send(errorBody(statusCode, `Internal error (request ${request.id}); it has been logged`))
    }
    return reply.code(statusCode).send(errorBody(statusCode, error.message))
  })
}, { name: 'errors' })
