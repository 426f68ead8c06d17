import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import basicAuth from '@fastify/basic-auth'
import formBody from '@fastify/formbody'
import { errorResponses } from '../../server/schemas.ts'
import type { AppRow } from '../apps/service.ts'
import { oauthError } from './errors.ts'
import { createOAuthService } from './service.ts'
import { AuthorizeBody, AuthorizeInfoQuery, AuthorizeInfoSchema, OAuthErrorSchema, RedirectSchema, TokenBody, TokenSchema } from './schemas.ts'

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by the Basic-auth check of POST /oauth/token. */
    oauthClient: AppRow | null
  }
}

const tags = ['oauth']

/** /oauth: consent (JWT, for the SPA's consent screen) and the code exchange (client credentials). */
const oauthRoutes: FastifyPluginAsyncTypebox = async (fastify) => {
  const oauth = createOAuthService({ db: fastify.db, apps: fastify.apps, installations: fastify.installations, commerce: fastify.commerce, auth: fastify.auth })
  await fastify.register(formBody)
  fastify.decorateRequest('oauthClient', null)
  await fastify.register(basicAuth, {
    authenticate: false,
    validate: async (clientId, clientSecret, request) => {
      const app = await fastify.apps.verifyClientCredentials(clientId, clientSecret)
      if (app === null) throw oauthError('invalid_client', 'Client authentication failed')
      request.oauthClient = app
    }
  })

  fastify.get('/authorize/info', {
    onRequest: fastify.requireUser,
    schema: {
      tags, security: [{ developerJwt: [] }], summary: 'What the consent screen shows',
      description: '400 (with `code`: invalid_client, invalid_request, unauthorized_client, invalid_scope) for an unknown client, a redirect_uri that does not exactly match, an unpublished app (merchant), or scopes outside the approved set.',
      querystring: AuthorizeInfoQuery, response: { 200: AuthorizeInfoSchema, ...errorResponses(400, 401, 403) }
    }
  }, async (request) => await oauth.info(request.user, request.query))

  fastify.post('/authorize', {
    onRequest: fastify.requireUser,
    schema: {
      tags, security: [{ developerJwt: [] }], summary: 'Approve or deny: returns where to send the browser',
      description: 'A MERCHANT installs on their business; a DEVELOPER authorizing their own app installs on their sandbox (test install). The code is valid 10 minutes, once. PKCE S256: send code_challenge here and code_verifier at the exchange.',
      body: AuthorizeBody, response: { 200: RedirectSchema, ...errorResponses(400, 401, 403) }
    }
  }, async (request) => {
    const redirectTo = await oauth.authorize(request.user, request.body)
    request.log.info({ clientId: request.body.client_id, decision: request.body.decision }, 'authorization decided')
    return { redirectTo }
  })

  fastify.post('/token', {
    onRequest: async (request, reply) => {
      if (!/^Basic\s/i.test(request.headers.authorization ?? '')) throw oauthError('invalid_client', 'Client authentication required: HTTP Basic with client_id and client_secret')
      await new Promise<void>((resolve, reject) => { fastify.basicAuth(request, reply, (error) => { if (error !== undefined) reject(error); else resolve() }) })
    },
    schema: {
      tags, security: [{ clientBasic: [] }], summary: 'Exchange an authorization code for an access token',
      description: 'HTTP Basic client_id:client_secret; body as form or JSON. Errors use RFC 6749 codes in `error` (invalid_client 401; invalid_grant, invalid_request, unsupported_grant_type 400).',
      consumes: ['application/x-www-form-urlencoded', 'application/json'],
      body: TokenBody, response: { 200: TokenSchema, 400: OAuthErrorSchema, 401: OAuthErrorSchema }
    }
  }, async (request, reply) => {
    const token = await oauth.exchange(request.oauthClient as AppRow, request.body)
    request.log.info({ installationId: token.installation_id }, 'access token issued')
    return reply.header('cache-control', 'no-store').header('pragma', 'no-cache').send(token)
  })
}

export default oauthRoutes
