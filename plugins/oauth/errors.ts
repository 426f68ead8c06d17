import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify'
import { HttpError } from '../../server/http-errors.ts'

export type OAuthErrorCode = 'invalid_request' | 'invalid_client' | 'invalid_grant' | 'unauthorized_client' | 'unsupported_grant_type' | 'invalid_scope' |
  'unsupported_response_type' | 'access_denied' | 'authorization_pending' | 'slow_down' | 'expired_token'

/** RFC 6749 §5.2 error: `error` is the OAuth code (what client libraries read), plus our statusCode and message. */
export function oauthError (code: OAuthErrorCode, description: string): HttpError {
  const status = code === 'invalid_client' ? 401 : 400
  const headers: Record<string, string> = { 'cache-control': 'no-store' }
  if (status === 401) headers['www-authenticate'] = 'Basic realm="oauth"'
  return new HttpError(status, description, { error: code, error_description: description }, headers)
}

/** Problems on the consent side (JSON API for the SPA): the usual error body plus the OAuth code. */
export function authorizeError (code: OAuthErrorCode, description: string): HttpError {
  return new HttpError(400, description, { code })
}

/**
 * A problem found once the client and its redirect_uri checked out: RFC 6749 §4.1.2.1 sends it back to
 * the client, so the 400 carries `redirectTo` (the redirect_uri with error, error_description and state)
 * and the consent screen follows it instead of showing the problem.
 */
export function redirectedError (code: OAuthErrorCode, description: string, to: { redirectUri: string, state?: string }): HttpError {
  const url = new URL(to.redirectUri)
  url.searchParams.set('error', code)
  url.searchParams.set('error_description', description)
  if (to.state !== undefined) url.searchParams.set('state', to.state)
  return new HttpError(400, description, { code, redirectTo: url.toString() })
}

/**
 * Route error handler of the token and revocation endpoints: every error leaves in the RFC 6749 shape
 * (DESIGN §16), since client libraries read `error`. Ours already are; a refused body (validation,
 * malformed JSON, a wrong content type, a NUL) becomes `invalid_request` 400, never a 500 because the
 * generic error body does not fit the response schema.
 */
export function oauthErrorHandler (error: FastifyError | HttpError, request: FastifyRequest, reply: FastifyReply): FastifyReply {
  const oauth = error instanceof HttpError && typeof error.extra.error === 'string'
    ? error
    : (error.statusCode ?? 500) < 500
        ? oauthError('invalid_request', error.message)
        : null
  if (oauth === null) {
    request.log.error({ err: error }, 'token endpoint failed')
    return reply.code(500).headers({ 'cache-control': 'no-store' })
      .send({ error: 'server_error', error_description: `Internal error (request ${request.id}); it has been logged`, statusCode: 500, message: 'Internal error' })
  }
  return reply.code(oauth.statusCode).headers(oauth.headers).send({ ...oauth.extra, statusCode: oauth.statusCode, message: oauth.message })
}
