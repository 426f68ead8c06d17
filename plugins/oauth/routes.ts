import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import formBody from '@fastify/formbody'
import { errorResponses } from '../../server/schemas.ts'
import type { AppRow } from '../apps/service.ts'
import { oauthError, oauthErrorHandler } from './errors.ts'
import { registerClientAuth } from './client-auth.ts'
import { Type } from '@sinclair/typebox'
import deviceRoutes from './device-routes.ts'
import type { OAuth, OAuthNeeds } from './service.ts'

/** What the /oauth routes are registered with: the port itself, the clients' credentials, the guards. */
type OAuthRouteOptions = OAuth & Pick<OAuthNeeds, 'apps' | 'guards'>
import { CLI_CLIENT_ID, DEVICE_CODE_GRANT } from './device.ts'
import { DeviceTokenSchema, AuthorizeBodySchema, AuthorizeInfoQuery, AuthorizeInfoSchema, OAuthErrorSchema, RedirectSchema, RevokeBodySchema, RevokedSchema, TokenBodySchema, TokenSchema } from './schemas.ts'

const tags = ['oauth']
const NO_STORE = { 'cache-control': 'no-store', pragma: 'no-cache' }

/** /oauth: consent (JWT, for the SPA's consent screen), the code exchange and revocation (client credentials). */
const oauthRoutes: FastifyPluginAsyncTypebox<OAuthRouteOptions> = async (fastify, { oauth, deviceFlow, apps, guards }) => {
  // the admin lists an approved install at once, as "finishing install", until the app exchanges the code
  await fastify.register(formBody)
  const requireClient = await registerClientAuth(fastify, apps)

  fastify.get('/authorize/info', {
    onRequest: guards.requireUser,
    schema: {
      tags, security: [{ developerJwt: [] }], operationId: 'getAuthorizationInfo', summary: 'What the consent screen shows',
      description: '400 (with `code`: invalid_client, invalid_request, unauthorized_client, invalid_scope) for an unknown client, a redirect_uri that does not exactly match, an unpublished app (merchant), or scopes outside the approved set. `pricing` is what the app may charge this install from: the approved plans for a merchant, the edited ones for a developer\'s test install (DESIGN §23).',
      querystring: AuthorizeInfoQuery, response: { 200: AuthorizeInfoSchema, ...errorResponses(400, 401, 403) }
    }
  }, async (request) => await oauth.info(request.user, request.query))

  fastify.post('/authorize', {
    onRequest: guards.requireUser,
    schema: {
      tags, security: [{ developerJwt: [] }], operationId: 'authorize', summary: 'Approve or deny: returns where to send the browser',
      description: 'A MERCHANT installs on their business; a DEVELOPER authorizing their own app installs on their sandbox (test install). The code is valid 10 minutes, once. PKCE S256: send code_challenge here and code_verifier at the exchange.',
      body: AuthorizeBodySchema, response: { 200: RedirectSchema, ...errorResponses(400, 401, 403) }
    }
  }, async (request) => {
    const redirectTo = await oauth.authorize(request.user, request.body)
    request.log.info({ clientId: request.body.client_id, decision: request.body.decision }, 'authorization decided')
    return { redirectTo }
  })

  fastify.post('/token', {
    // the device grant's client is public (no secret): without a Basic header, the body decides
    onRequest: async (request, reply) => { if (request.headers.authorization !== undefined) await requireClient(request, reply) },
    preHandler: async (request) => {
      if (request.body.grant_type === DEVICE_CODE_GRANT) {
        if (request.body.client_id !== CLI_CLIENT_ID) throw oauthError('invalid_client', `The device grant is for the developer CLI (client_id=${CLI_CLIENT_ID})`)
      } else if (request.oauthClient === null) {
        throw oauthError('invalid_client', 'Client authentication required: HTTP Basic with client_id and client_secret')
      }
    },
    errorHandler: oauthErrorHandler,
    schema: {
      tags, security: [{ clientBasic: [] }], operationId: 'exchangeToken', summary: 'Exchange an authorization code for an access token',
      description: 'HTTP Basic client_id:client_secret, each form-urlencoded first (RFC 6749 §2.3.1; raw values work too); body as form or JSON. Errors use RFC 6749 codes in `error` (invalid_client 401; invalid_grant, invalid_request, unsupported_grant_type 400). The developer CLI polls here with grant_type=urn:ietf:params:oauth:grant-type:device_code, device_code and client_id=app-platform-cli, no secret (RFC 8628 §3.4): authorization_pending, slow_down, expired_token and access_denied (400) until a CLI token is issued.',
      consumes: ['application/x-www-form-urlencoded', 'application/json'],
      body: TokenBodySchema, response: { 200: Type.Union([TokenSchema, DeviceTokenSchema]), 400: OAuthErrorSchema, 401: OAuthErrorSchema }
    }
  }, async (request, reply) => {
    if (request.body.grant_type === DEVICE_CODE_GRANT) {
      if (request.body.device_code === undefined || request.body.device_code === '') throw oauthError('invalid_request', 'device_code is required')
      const issued = await deviceFlow.poll(request.body.device_code)
      request.log.info('CLI token issued')
      return reply.headers(NO_STORE).send(issued)
    }
    const token = await oauth.exchange(request.oauthClient as AppRow, request.body)
    request.log.info({ installationId: token.installation_id }, 'access token issued')
    return reply.headers(NO_STORE).send(token)
  })

  await fastify.register(deviceRoutes, { deviceFlow, guards })

  fastify.post('/revoke', {
    onRequest: requireClient,
    errorHandler: oauthErrorHandler,
    schema: {
      tags, security: [{ clientBasic: [] }], operationId: 'revokeToken', summary: 'Revoke an access token (RFC 7009): uninstalls the app',
      description: 'HTTP Basic client authentication as at /oauth/token; body `token` (form or JSON). Revoking an access token uninstalls its installation exactly as a merchant uninstall does (webhooks off, blocks removed, `business.data_erasure` scheduled). 200 whether or not the token was valid (RFC 7009 §2.2); a token issued to another client is refused with 400 `unauthorized_client` and left alone (§2.1).',
      consumes: ['application/x-www-form-urlencoded', 'application/json'],
      body: RevokeBodySchema, response: { 200: RevokedSchema, 400: OAuthErrorSchema, 401: OAuthErrorSchema }
    }
  }, async (request, reply) => {
    const { token } = request.body
    if (token === undefined || token === '') throw oauthError('invalid_request', 'token is required')
    const client = request.oauthClient as AppRow
    const outcome = await oauth.revoke(client, token)
    if (outcome === 'other_client') throw oauthError('unauthorized_client', 'The token was not issued to this client; nothing was revoked')
    if (outcome === 'revoked') request.log.info({ clientId: client.clientId }, 'access token revoked: app uninstalled')
    return reply.headers(NO_STORE).send({})
  })
}

export default oauthRoutes
