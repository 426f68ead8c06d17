import fp from 'fastify-plugin'
import { PREFIX } from '../../server/api-prefixes.ts'
import authService from './service.ts'
import authRoutes from './routes.ts'
import cliTokenRoutes from './cli-token-routes.ts'

/**
 * Accounts: the auth service (register, log in, who am I) and its routes, /auth and the CLI's tokens.
 * The session guards (./guards.ts) are registered apart, with the infrastructure, before every
 * capability: each actor route uses them (docs/architecture.md).
 */
export default fp(async function authCapability (fastify) {
  await fastify.register(authService)
  await fastify.register(authRoutes, { prefix: PREFIX.auth })
  await fastify.register(cliTokenRoutes, { prefix: PREFIX.developerCliTokens })
}, { name: 'auth-capability', dependencies: ['auth-guards'] })
