import fp from 'fastify-plugin'
import type { FastifyRequest, onRequestAsyncHookHandler, preHandlerAsyncHookHandler } from 'fastify'
import { sha256 } from '../../server/crypto.ts'
import { insufficientScope, invalidToken, missingToken } from './errors.ts'
import { toCached } from './service.ts'
import type { CachedInstallation } from './token-cache.ts'

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by requireAppToken: the calling installation. */
    installation: CachedInstallation
    /** Set by requireScope when the scope check passed: the scope this request exercised (app checks' scopes.used). */
    scopeUsed: string | null
  }
  interface FastifyInstance {
    /** onRequest: a live installation access token (fbat_…); 401 otherwise. */
    requireAppToken: onRequestAsyncHookHandler
    /** preHandler: the token's granted scopes include this one; 403 naming it otherwise. */
    requireScope: (scope: string) => preHandlerAsyncHookHandler
  }
}

/** The scheme's name is case-insensitive (RFC 6750 §2.1, RFC 9110 §11.1): `bearer`, as /oauth/token's token_type says, works. */
const TOKEN_PATTERN = /^[Bb][Ee][Aa][Rr][Ee][Rr]\s+(fbat_[A-Za-z0-9_-]{20,200})$/

/** Bearer-token authentication for apps; the database is consulted only on a cache miss. */
export default fp(async function appAuth (fastify) {
  fastify.decorateRequest('installation', null as unknown as CachedInstallation)
  fastify.decorateRequest('scopeUsed', null)

  fastify.decorate('requireAppToken', async function (request: FastifyRequest) {
    const header = request.headers.authorization
    // no credentials, or another scheme's: RFC 6750 §3.1's bare challenge
    if (header === undefined || !/^bearer\b/i.test(header.trim())) throw missingToken('token_missing', 'Authentication required: send Authorization: Bearer fbat_…')
    const match = TOKEN_PATTERN.exec(header)
    if (match === null) throw invalidToken('token_malformed', 'Missing or malformed access token: send Authorization: Bearer fbat_…')
    const tokenHash = sha256(match[1])
    let installation = fastify.tokenCache.get(tokenHash)
    if (installation === undefined) {
      const row = await fastify.installations.findByTokenHash(tokenHash)
      if (row === null) throw invalidToken('token_invalid', 'Invalid or revoked access token')
      installation = toCached(row)
      fastify.tokenCache.set(tokenHash, installation)
    }
    request.installation = installation
  })

  fastify.decorate('requireScope', (scope: string) => async function (request: FastifyRequest) {
    const { scopes, pendingScopes } = request.installation
    if (scopes.includes(scope)) {
      request.scopeUsed = scope
      return
    }
    throw insufficientScope(pendingScopes.includes(scope) ? 'scope_pending' : 'scope_missing', scope, pendingScopes.includes(scope)
      ? `This endpoint requires the ${scope} scope, which the merchant has not approved yet (re-consent pending)`
      : `This endpoint requires the ${scope} scope`)
  })
}, { name: 'app-auth', dependencies: ['installations'] })
