import fp from 'fastify-plugin'
import { PREFIX } from '../../server/api-prefixes.ts'
import type { CapabilityOptions } from '../../server/capability.ts'
import { startOAuth, type OAuth, type OAuthNeeds } from './service.ts'
import oauthRoutes from './routes.ts'
import oauthMetadataRoutes from './metadata-routes.ts'

export type { OAuth, OAuthNeeds }

/** OAuth: consent, the code and device grants, revocation, and the authorization server's metadata. */
export default fp<CapabilityOptions<OAuthNeeds, OAuth>>(async function oauthCapability (fastify, { expose, ...needs }) {
  const port = startOAuth(fastify, needs)
  expose(port)
  await fastify.register(oauthRoutes, { prefix: PREFIX.oauth, ...port, apps: needs.apps, guards: needs.guards })
  await fastify.register(oauthMetadataRoutes, { prefix: PREFIX.wellKnown })
}, { name: 'oauth' })
