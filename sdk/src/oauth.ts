import { createHash, randomBytes } from 'node:crypto'
import type { FetchLike } from './types.ts'
import type { Scope } from './contract/scopes.ts'

/** OAuth 2.0 authorization-code install flow (RFC 6749, PKCE per RFC 7636; DESIGN §6 OAuth). */

export interface AuthorizeUrlParams {
  /** {admin_url}: where the consent screen lives. */
  adminUrl: string
  clientId: string
  /** Must equal the app's Redirect URL exactly. */
  redirectUri: string
  /** Requested scopes; omitted means all approved scopes. */
  scopes?: readonly Scope[]
  /** Opaque value bound to the user's session; check it on the callback (CSRF). */
  state: string
  /** S256 challenge from createPkcePair(). */
  codeChallenge?: string
}

/** The consent-screen URL to redirect the merchant to. */
export function buildAuthorizeUrl (params: AuthorizeUrlParams): string {
  const url = new URL('oauth/authorize', withTrailingSlash(params.adminUrl))
  url.searchParams.set('response_type', 'code')
  url.searchParams.set('client_id', params.clientId)
  url.searchParams.set('redirect_uri', params.redirectUri)
  if (params.scopes !== undefined && params.scopes.length > 0) url.searchParams.set('scope', params.scopes.join(' '))
  url.searchParams.set('state', params.state)
  if (params.codeChallenge !== undefined) {
    url.searchParams.set('code_challenge', params.codeChallenge)
    url.searchParams.set('code_challenge_method', 'S256')
  }
  return url.toString()
}

function withTrailingSlash (base: string): string {
  return base.endsWith('/') ? base : `${base}/`
}

function base64url (bytes: Buffer): string {
  return bytes.toString('base64url')
}

/** A random `state` value (32 bytes, base64url). */
export function createState (): string {
  return base64url(randomBytes(32))
}

export interface PkcePair {
  /** Keep server-side (with the state) until the callback; send it to exchangeCode. */
  codeVerifier: string
  /** Send in the authorize URL. */
  codeChallenge: string
  codeChallengeMethod: 'S256'
}

/** BASE64URL(SHA256(verifier)), RFC 7636 §4.2. */
export function pkceChallenge (codeVerifier: string): string {
  return base64url(createHash('sha256').update(codeVerifier, 'ascii').digest())
}

/** A PKCE verifier (43 chars: 32 random bytes, base64url) and its S256 challenge. */
export function createPkcePair (): PkcePair {
  const codeVerifier = base64url(randomBytes(32))
  return { codeVerifier, codeChallenge: pkceChallenge(codeVerifier), codeChallengeMethod: 'S256' }
}

/** An RFC 6749 §5.2 error (or `invalid_response` / `access_denied` raised by this SDK). */
export class OAuthError extends Error {
  readonly error: string
  readonly error_description: string | undefined
  /** HTTP status of the token endpoint's answer; undefined for errors found before any request. */
  readonly statusCode: number | undefined
  constructor (error: string, description?: string, statusCode?: number) {
    super(description !== undefined ? `${error}: ${description}` : error)
    this.name = 'OAuthError'
    this.error = error
    this.error_description = description
    this.statusCode = statusCode
  }
}

export interface CallbackResult {
  code: string
  state: string
}

/**
 * Reads the redirect back from the consent screen (a full URL or a request path): returns the code after checking `state`,
 * throws OAuthError for `error=access_denied` (merchant declined) or a state mismatch.
 */
export function parseAuthorizeCallback (callbackUrl: string | URL, expectedState: string): CallbackResult {
  // A request path such as node's `req.url` ('/oauth/callback?code=…') works too: only the query is read.
  const url = new URL(callbackUrl, 'http://callback.invalid')
  const state = url.searchParams.get('state') ?? ''
  if (state === '' || state !== expectedState) throw new OAuthError('invalid_state', 'state does not match the one sent')
  const error = url.searchParams.get('error')
  if (error !== null) throw new OAuthError(error, url.searchParams.get('error_description') ?? undefined)
  const code = url.searchParams.get('code')
  if (code === null || code === '') throw new OAuthError('invalid_request', 'callback carries no code')
  return { code, state }
}

export interface ExchangeCodeParams {
  /** {base_url}: the API host. */
  baseUrl: string
  clientId: string
  clientSecret: string
  code: string
  redirectUri: string
  /** Required when the authorize URL carried a code_challenge. */
  codeVerifier?: string
  fetch?: FetchLike
}

export interface TokenResponse {
  access_token: string
  token_type: string
  /** Space-separated granted scopes. */
  scope: string
  installation_id: string
  business_id: string
  /** Signs this installation's webhook deliveries and hook calls. */
  webhook_secret: string
  /**
   * Where the app may send the merchant when its own install steps are done: the platform admin's apps
   * screen, naming this installation. Absent from platforms that predate it.
   */
  admin_return_url?: string
}

const OAUTH_ERROR_CODE = /^[a-z][a-z0-9_]*$/
const TOKEN_FIELDS = ['access_token', 'token_type', 'scope', 'installation_id', 'business_id', 'webhook_secret'] as const

/** Exchanges an authorization code at {base_url}/oauth/token (client authenticated with HTTP Basic). */
export async function exchangeCode (params: ExchangeCodeParams): Promise<TokenResponse> {
  const form = new URLSearchParams({ grant_type: 'authorization_code', code: params.code, redirect_uri: params.redirectUri })
  if (params.codeVerifier !== undefined) form.set('code_verifier', params.codeVerifier)
  const credentials = Buffer.from(`${params.clientId}:${params.clientSecret}`, 'utf8').toString('base64')
  const doFetch = params.fetch ?? globalThis.fetch
  const response = await doFetch(new URL('oauth/token', withTrailingSlash(params.baseUrl)).toString(), {
    method: 'POST',
    headers: {
      authorization: `Basic ${credentials}`,
      'content-type': 'application/x-www-form-urlencoded',
      accept: 'application/json'
    },
    body: form.toString(),
    redirect: 'error'
  })
  const text = await response.text()
  let body: unknown
  try {
    body = text === '' ? undefined : JSON.parse(text)
  } catch {
    body = undefined
  }
  const record = typeof body === 'object' && body !== null ? body as Record<string, unknown> : {}
  if (!response.ok) {
    // An RFC 6749 code is snake_case; any other `error` (e.g. the reason phrase of a 404) is not one.
    const error = typeof record.error === 'string' && OAUTH_ERROR_CODE.test(record.error) ? record.error : 'server_error'
    const description = typeof record.error_description === 'string' ? record.error_description : (typeof record.message === 'string' ? record.message : undefined)
    throw new OAuthError(error, description, response.status)
  }
  for (const field of TOKEN_FIELDS) {
    if (typeof record[field] !== 'string') {
      throw new OAuthError('invalid_response', `token response lacks "${field}"`, response.status)
    }
  }
  const token = {} as TokenResponse
  for (const field of TOKEN_FIELDS) token[field] = record[field] as string
  if (typeof record.admin_return_url === 'string' && /^https?:\/\//.test(record.admin_return_url)) token.admin_return_url = record.admin_return_url
  return token
}
