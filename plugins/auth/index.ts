import fp from 'fastify-plugin'
import { PREFIX } from '../../server/api-prefixes.ts'
import type { CapabilityOptions } from '../../server/capability.ts'
import type { AuthContext } from './accounts.ts'
import type { Guards } from './guards.ts'
import { startAuthService, type AuthService } from './service.ts'
import authRoutes from './routes.ts'
import cliTokenRoutes from './cli-token-routes.ts'

export type { AuthService }

/** What accounts need: commerce, which creates a merchant's business at sign-up, and the session guards. */
export interface AuthNeeds {
  commerce: AuthContext['commerce']
  guards: Guards
}

/**
 * Accounts: the auth service (register, log in, who am I) and its routes, /auth and the CLI's tokens.
 * The session guards (./guards.ts) are mounted apart, with the infrastructure, before every
 * capability: each actor route uses them (docs/architecture.md).
 */
export default fp<CapabilityOptions<AuthNeeds, AuthService>>(async function authCapability (fastify, { commerce, guards, expose }) {
  const auth = await startAuthService(fastify, commerce)
  expose(auth)
  await fastify.register(authRoutes, { prefix: PREFIX.auth, auth, guards })
  await fastify.register(cliTokenRoutes, { prefix: PREFIX.developerCliTokens, guards })
}, { name: 'auth' })
