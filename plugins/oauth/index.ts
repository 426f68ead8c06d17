import fp from 'fastify-plugin'
import { PREFIX } from '../../server/api-prefixes.ts'
import oauthService from './service.ts'
import oauthRoutes from './routes.ts'
import oauthMetadataRoutes from './metadata-routes.ts'

/** OAuth: consent, the code and device grants, revocation, and the authorization server's metadata. */
export default fp(async function oauthCapability (fastify) {
  await fastify.register(oauthService)
  await fastify.register(oauthRoutes, { prefix: PREFIX.oauth })
  await fastify.register(oauthMetadataRoutes, { prefix: PREFIX.wellKnown })
}, { name: 'oauth-capability', dependencies: ['auth-guards'] })
