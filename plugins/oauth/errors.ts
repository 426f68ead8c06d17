import { HttpError } from '../../server/http-errors.ts'

export type OAuthErrorCode = 'invalid_request' | 'invalid_client' | 'invalid_grant' | 'unauthorized_client' | 'unsupported_grant_type' | 'invalid_scope'

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
