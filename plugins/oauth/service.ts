import fp from 'fastify-plugin'
import { bindTo } from '../../server/db/bind.ts'
import { authorize, info, resolve, unexchangedConsents } from './consent.ts'
import type { OAuthContext } from './context.ts'
import { createDeviceFlow, type DeviceFlow } from './device.ts'
import { exchange, revoke } from './token-grant.ts'

export { parseScopes, type ResolvedRequest } from './consent.ts'
export { adminReturnUrl, pkceChallenge } from './token-grant.ts'
export type { OAuthContext } from './context.ts'

/** The admin's screen where a developer enters the CLI's user code. */
export const DEVICE_SCREEN_PATH = '/device'

/** Consent (consent.ts) and the code grant and revocation (token-grant.ts), bound to the database and the capabilities they ask. */
export function createOAuthService (context: OAuthContext) {
  return bindTo(context, { resolve, info, authorize, exchange, revoke, unexchangedConsents })
}

export type OAuthService = ReturnType<typeof createOAuthService>

declare module 'fastify' {
  interface FastifyInstance {
    /** Consent, the code exchange and revocation: the only writer of oauth_codes. */
    oauth: OAuthService
    /** RFC 8628 device authorization of the developer CLI: the only writer of device_authorizations. */
    deviceFlow: DeviceFlow
  }
}

/** The oauth service as a decorator, like every capability's; it tells installations where unexchanged consents are. */
export default fp(async function oauthService (fastify) {
  const oauth = createOAuthService({
    executor: fastify.db, clock: fastify.clock, apps: fastify.apps, installations: fastify.installations, commerce: fastify.commerce, auth: fastify.auth,
    adminUrl: () => fastify.origins.adminUrl
  })
  fastify.decorate('oauth', oauth)
  fastify.installations.addConsentSource(oauth.unexchangedConsents)
  fastify.decorate('deviceFlow', createDeviceFlow({
    executor: fastify.db,
    clock: fastify.clock,
    intervalSeconds: fastify.config.devicePollIntervalSeconds,
    verificationUri: () => `${fastify.origins.adminUrl}${DEVICE_SCREEN_PATH}`,
    issueToken: async (userId, name) => {
      const { token, view } = await fastify.cliTokens.issue(userId, name)
      return { token, expiresAt: view.expiresAt }
    }
  }))
}, { name: 'oauth', dependencies: ['db', 'clock', 'apps', 'installations', 'commerce', 'auth', 'auth-guards'] })
