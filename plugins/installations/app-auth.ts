import type { FastifyInstance, FastifyRequest, onRequestAsyncHookHandler, preHandlerAsyncHookHandler } from 'fastify'
import { sha256 } from '../../server/crypto.ts'
import { HttpError } from '../../server/http-errors.ts'
import { insufficientScope, invalidToken, missingToken } from './errors.ts'
import { toCached, type InstallationRow } from './context.ts'
import type { CachedInstallation, TokenCache } from './token-cache.ts'

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by identifyAppToken or requireAppToken: the calling installation. */
    installation: CachedInstallation
    /** Set by identifyAppToken: the 401 a missing or bad token gets, answered by requireAppToken. */
    appTokenRefusal: HttpError | null
    /** Set by requireScope when the scope check passed: the scope this request exercised (app checks' scopes.used). */
    scopeUsed: string | null
  }
}

/** The app-token guards: what the App API's scope puts on every route. */
export interface AppAuth {
  /**
   * onRequest: reads the access token and sets the installation, keeping a 401 for requireAppToken,
   * so hooks in between (the rate limit: X-RateLimit-* on a 401 too, DESIGN §21) see every call.
   */
  identifyAppToken: onRequestAsyncHookHandler
  /** onRequest: a live installation access token (fbat_…); 401 otherwise. */
  requireAppToken: onRequestAsyncHookHandler
  /** preHandler: the token's granted scopes include this one; 403 naming it otherwise. */
  requireScope: (scope: string) => preHandlerAsyncHookHandler
}

/** The scheme's name is case-insensitive (RFC 6750 §2.1, RFC 9110 §11.1): `bearer`, as /oauth/token's token_type says, works. */
const TOKEN_PATTERN = /^[Bb][Ee][Aa][Rr][Ee][Rr]\s+(fbat_[A-Za-z0-9_-]{20,200})$/

/** How an installation is found by its token's hash (the installations service's findByTokenHash). */
interface TokenLookup { findByTokenHash: (tokenHash: string) => Promise<InstallationRow | null> }

/** Bearer-token authentication for apps; the database is consulted only on a cache miss. */
export function startAppAuth (fastify: FastifyInstance, installations: TokenLookup, tokenCache: TokenCache): AppAuth {
  fastify.decorateRequest('installation', null as unknown as CachedInstallation)
  fastify.decorateRequest('scopeUsed', null)
  fastify.decorateRequest('appTokenRefusal', null)

  async function authenticate (request: FastifyRequest): Promise<void> {
    const header = request.headers.authorization
    // no credentials, or another scheme's: RFC 6750 §3.1's bare challenge
    if (header === undefined || !/^bearer\b/i.test(header.trim())) throw missingToken('token_missing', 'Authentication required: send Authorization: Bearer fbat_…')
    const match = TOKEN_PATTERN.exec(header)
    if (match === null) throw invalidToken('token_malformed', 'Missing or malformed access token: send Authorization: Bearer fbat_…')
    const tokenHash = sha256(match[1])
    let installation = tokenCache.get(tokenHash)
    if (installation === undefined) {
      const row = await installations.findByTokenHash(tokenHash)
      if (row === null) throw invalidToken('token_invalid', 'Invalid or revoked access token')
      installation = toCached(row)
      tokenCache.set(tokenHash, installation)
    }
    request.installation = installation
  }

  async function identifyAppToken (request: FastifyRequest): Promise<void> {
    try {
      await authenticate(request)
    } catch (error) {
      if (!(error instanceof HttpError) || error.statusCode !== 401) throw error
      request.appTokenRefusal = error
    }
  }
  async function requireAppToken (request: FastifyRequest): Promise<void> {
    if (request.appTokenRefusal !== null) throw request.appTokenRefusal
    if (request.installation === null) await authenticate(request)
  }

  const requireScope = (scope: string) => async function (request: FastifyRequest) {
    const { scopes, pendingScopes } = request.installation
    if (scopes.includes(scope)) {
      request.scopeUsed = scope
      return
    }
    throw insufficientScope(pendingScopes.includes(scope) ? 'scope_pending' : 'scope_missing', scope, pendingScopes.includes(scope)
      ? `This endpoint requires the ${scope} scope, which the merchant has not approved yet (re-consent pending)`
      : `This endpoint requires the ${scope} scope`)
  }
  return { identifyAppToken, requireAppToken, requireScope }
}
