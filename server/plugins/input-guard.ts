import fp from 'fastify-plugin'
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify'
import { badRequest, errorBody } from '../http-errors.ts'
import { findString } from '../validation.ts'

/**
 * Longest path parameter the router accepts. Far above any id: a long one then reaches its route
 * and gets the route's own 400 or 404, instead of the router's 414 with a body outside the format.
 */
export const MAX_PARAM_LENGTH = 8 * 1024

/** Where in `value` (a parsed body, query or params) a key or string holds a NUL character. */
export const nulPath = (value: unknown, root: string): string | null => findString(value, (text) => text.includes('\u0000'), root, true)

/**
 * Router errors (a malformed percent-encoding, say) in the platform's error format, without echoing
 * the request back (Fastify's `frameworkErrors` option).
 */
export function frameworkErrors (error: FastifyError, _request: FastifyRequest, reply: FastifyReply): void {
  const statusCode = typeof error.statusCode === 'number' && error.statusCode >= 400 && error.statusCode < 500 ? error.statusCode : 400
  const message = error.code === 'FST_ERR_BAD_URL' ? 'The URL is malformed: a path segment is not valid percent-encoding' : 'The request could not be routed'
  void reply.code(statusCode).send(errorBody(statusCode, error.code === 'FST_ERR_BAD_URL' ? 'malformed_url' : 'bad_request', message))
}

/**
 * PostgreSQL cannot store a NUL character in text: refuse one anywhere in params, query or body with
 * a 400 naming the field, before any validator or handler (and so any query) sees it.
 */
export default fp(async function inputGuard (fastify) {
  fastify.addHook('preValidation', async (request) => {
    const where = nulPath(request.params, 'params') ?? nulPath(request.query, 'querystring') ?? nulPath(request.body, 'body')
    if (where !== null) throw badRequest('nul_character', `${where} must not contain NUL characters`)
  })
}, { name: 'input-guard' })
