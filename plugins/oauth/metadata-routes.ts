import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { SCOPES } from '../../server/events.ts'
import { ServerMetadataSchema } from './schemas.ts'
import { DEVICE_CODE_GRANT } from './device.ts'

/** Where the oauth routes live under BASE_URL; the consent screen is the SPA's, on ADMIN_URL. */
export const OAUTH_PATHS = { authorize: '/oauth/authorize', token: '/oauth/token', revoke: '/oauth/revoke', deviceAuthorization: '/oauth/device_authorization' } as const

/** RFC 8414 metadata at /.well-known/oauth-authorization-server: what client libraries discover first. */
const oauthMetadataRoutes: FastifyPluginAsyncTypebox = async (fastify) => {
  const { baseUrl, adminUrl } = fastify.config
  const metadata = {
    issuer: baseUrl,
    authorization_endpoint: `${adminUrl}${OAUTH_PATHS.authorize}`,
    token_endpoint: `${baseUrl}${OAUTH_PATHS.token}`,
    revocation_endpoint: `${baseUrl}${OAUTH_PATHS.revoke}`,
    response_types_supported: ['code'],
    grant_types_supported: ['authorization_code', DEVICE_CODE_GRANT],
    device_authorization_endpoint: `${baseUrl}${OAUTH_PATHS.deviceAuthorization}`,
    code_challenge_methods_supported: ['S256'],
    // none: the developer CLI, a public client of the device grant
    token_endpoint_auth_methods_supported: ['client_secret_basic', 'none'],
    revocation_endpoint_auth_methods_supported: ['client_secret_basic'],
    scopes_supported: [...SCOPES],
    service_documentation: `${baseUrl}/docs`
  }

  fastify.get('/oauth-authorization-server', {
    schema: {
      tags: ['oauth'], security: [], operationId: 'getAuthorizationServerMetadata', summary: 'OAuth 2.0 authorization server metadata (RFC 8414)', description: 'Public. Where the authorize, token and revocation endpoints are, and what they support, so standard OAuth clients configure themselves.',
      response: { 200: ServerMetadataSchema }
    }
  }, async (_request, reply) => reply.header('cache-control', 'public, max-age=3600').send(metadata))
}

export default oauthMetadataRoutes
