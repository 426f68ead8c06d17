import type { FastifyInstance } from 'fastify'
import type { Apps } from '../apps/index.ts'
import type { Guards } from '../auth/guards.ts'
import type { Installations } from '../installations/index.ts'
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

/** OAuth's port (server/capability.ts): consent, the code exchange and revocation, and the CLI's device flow. */
export interface OAuth {
  /** Consent, the code exchange and revocation: the only writer of oauth_codes. */
  oauth: OAuthService
  /** RFC 8628 device authorization of the developer CLI: the only writer of device_authorizations. */
  deviceFlow: DeviceFlow
}

/** What OAuth needs of the others. */
export interface OAuthNeeds {
  apps: OAuthContext['apps'] & Pick<Apps, 'verifyClientCredentials'>
  installations: OAuthContext['installations'] & Pick<Installations, 'addConsentSource'>
  commerce: OAuthContext['commerce']
  auth: OAuthContext['auth']
  guards: Pick<Guards, 'requireUser' | 'requireRole' | 'cliTokens'>
}

/** The oauth service and the device flow; it tells installations where unexchanged consents are. */
export function startOAuth (fastify: FastifyInstance, { apps, installations, commerce, auth, guards }: OAuthNeeds): OAuth {
  const oauth = createOAuthService({
    executor: fastify.db, clock: fastify.clock, apps, installations, commerce, auth,
    adminUrl: () => fastify.origins.adminUrl
  })
  installations.addConsentSource(oauth.unexchangedConsents)
  const deviceFlow = createDeviceFlow({
    executor: fastify.db,
    clock: fastify.clock,
    intervalSeconds: fastify.config.devicePollIntervalSeconds,
    verificationUri: () => `${fastify.origins.adminUrl}${DEVICE_SCREEN_PATH}`,
    issueToken: async (userId, name) => {
      const { token, view } = await guards.cliTokens.issue(userId, name)
      return { token, expiresAt: view.expiresAt }
    }
  })
  return { oauth, deviceFlow }
}
