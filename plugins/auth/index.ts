import fp from 'fastify-plugin'
import { PREFIX } from '../../server/api-prefixes.ts'
import type { CapabilityOptions } from '../../server/capability.ts'
import type { AuthContext } from './accounts.ts'
import type { Guards } from './guards.ts'
import { startAuthService, startStaffService, type AuthService } from './service.ts'
import staffRoutes from './staff-routes.ts'
import authRoutes from './routes.ts'
import cliTokenRoutes from './cli-token-routes.ts'

export type { AuthService }

/** What accounts need: commerce, which creates a merchant's business at sign-up, and the session guards (with staff's permissions cache). */
export interface AuthNeeds {
  commerce: AuthContext['commerce']
  guards: Guards
}

/**
 * Accounts: the auth service (register, log in, who am I, switch business) and its routes, /auth and the
 * CLI's tokens; a business's staff and invitations (DESIGN §24), /merchant/staff.
 * The session guards (./guards.ts) are mounted apart, with the infrastructure, before every
 * capability: each actor route uses them (docs/architecture.md).
 */
export default fp<CapabilityOptions<AuthNeeds, AuthService>>(async function authCapability (fastify, { commerce, guards, expose }) {
  const auth = await startAuthService(fastify, commerce)
  expose(auth)
  const staff = startStaffService(fastify, commerce, guards.members)
  await fastify.register(authRoutes, { prefix: PREFIX.auth, auth, staff, guards })
  await fastify.register(staffRoutes, { prefix: PREFIX.merchant, staff, guards })
  await fastify.register(cliTokenRoutes, { prefix: PREFIX.developerCliTokens, guards })
}, { name: 'auth' })
