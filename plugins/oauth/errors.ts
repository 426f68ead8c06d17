import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify'
import { defineErrors, errorHelpers, HttpError } from '../../server/http-errors.ts'

/**
 * The stable error codes of OAuth (DESIGN §21). The token, revocation and device endpoints keep
 * RFC 6749's shape (`error`, `error_description`) and carry the same code in `code`.
 */
export const ERROR_CODES = defineErrors({
  invalid_request: 'RFC 6749: a parameter is missing, repeated or malformed',
  invalid_client: 'RFC 6749: the client id or secret is wrong',
  invalid_grant: 'RFC 6749: the code, refresh token or device code is invalid, expired or used',
  unauthorized_client: 'RFC 6749: the client may not use this grant, or the token is not its own',
  unsupported_grant_type: 'RFC 6749: the grant type is not supported',
  invalid_scope: 'RFC 6749: a scope is unknown or beyond what the app was approved for',
  unsupported_response_type: 'RFC 6749: response_type is not `code`',
  access_denied: 'RFC 6749: the merchant denied the install',
  authorization_pending: 'RFC 8628: the developer has not approved the device login yet',
  slow_down: 'RFC 8628: the CLI polls faster than `interval`',
  expired_token: 'RFC 8628: the device code expired',
  user_code_invalid: 'A device code is 8 letters, like BCDF-GHJK',
  user_code_not_found: 'No device login is waiting for this code (it may have expired)',
  device_login_decided: 'The device login was already approved or denied',
  reviewer_cannot_install: 'Reviewers cannot install apps',
  permission_missing: 'A staff member without the apps permission cannot install apps'
})

export type OAuthErrorCode = 'invalid_request' | 'invalid_client' | 'invalid_grant' | 'unauthorized_client' | 'unsupported_grant_type' | 'invalid_scope' |
  'unsupported_response_type' | 'access_denied' | 'authorization_pending' | 'slow_down' | 'expired_token'

export const { conflict, forbidden, httpError, notFound } = errorHelpers(ERROR_CODES)

/** RFC 6749 §5.2 error: `error` is the OAuth code (what client libraries read), plus our statusCode and message. */
export function oauthError (code: OAuthErrorCode, description: string): HttpError {
  const status = code === 'invalid_client' ? 401 : 400
  const headers: Record<string, string> = { 'cache-control': 'no-store' }
  if (status === 401) headers['www-authenticate'] = 'Basic realm="oauth"'
  return new HttpError(status, code, description, { error: code, error_description: description }, headers)
}

/** Problems on the consent side (JSON API for the SPA): the usual error body plus the OAuth code. */
export function authorizeError (code: OAuthErrorCode, description: string): HttpError {
  return new HttpError(400, code, description)
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
  return new HttpError(400, code, description, { redirectTo: url.toString() })
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
      .send({ error: 'server_error', error_description: `Internal error (request ${request.id}); it has been logged`, statusCode: 500, message: 'Internal error', code: 'internal_error' })
  }
  return reply.code(oauth.statusCode).headers(oauth.headers).send({ ...oauth.extra, statusCode: oauth.statusCode, message: oauth.message, code: oauth.code })
}
