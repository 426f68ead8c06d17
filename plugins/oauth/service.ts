import { createHash } from 'node:crypto'
import fp from 'fastify-plugin'
import { and, desc, eq, gt, isNull } from 'drizzle-orm'
import { oauthCodes } from '../../server/db/schema/index.ts'
import type { Db } from '../../server/db/client.ts'
import { randomSecret, safeEqual, sha256 } from '../../server/crypto.ts'
import { HttpError } from '../../server/http-errors.ts'
import type { SessionClaims } from '../auth/guards.ts'
import type { AppsService, AppRow } from '../apps/service.ts'
import type { InstallationsService, Issued, UnexchangedConsent } from '../installations/service.ts'
import type { CommerceService } from '../commerce/service.ts'
import type { AuthService } from '../auth/service.ts'
import { createDeviceFlow, type DeviceFlow } from './device.ts'
import { authorizeError, forbidden, oauthError, redirectedError, type OAuthErrorCode } from './errors.ts'
import { AUTHORIZATION_CODE_TTL_MS, SCOPE_DESCRIPTIONS, type AuthorizationRequest, type AuthorizeBodyType } from './schemas.ts'
import type { Clock } from '../../server/clock.ts'

/** The admin's screen where a developer enters the CLI's user code. */
export const DEVICE_SCREEN_PATH = '/device'

/** An approved install whose code was not exchanged: shown as EXPIRED this long after the code expired. */
const EXPIRED_CONSENT_SHOWN_MS = 24 * 60 * 60 * 1000

export interface ResolvedRequest { app: AppRow, scopes: string[], businessId: string, isTestInstall: boolean }

const VERIFIER_PATTERN = /^[A-Za-z0-9._~-]{43,128}$/
const ACCESS_TOKEN_PATTERN = /^fbat_[A-Za-z0-9_-]{20,200}$/

export function parseScopes (scope: string | undefined): string[] | null {
  if (scope === undefined || scope.trim() === '') return null
  return [...new Set(scope.split(/[\s,]+/).filter((s) => s !== ''))]
}

export const pkceChallenge = (verifier: string): string => createHash('sha256').update(verifier).digest('base64url')

function withParams (base: string, params: Record<string, string | undefined>): string {
  const url = new URL(base)
  for (const [key, value] of Object.entries(params)) if (value !== undefined) url.searchParams.set(key, value)
  return url.toString()
}

/** Where an app may send the merchant back after an install (the admin's apps screen, which names the new install). */
export function adminReturnUrl (adminUrl: string, installationId: string): string {
  return `${adminUrl}/admin/apps?${new URLSearchParams({ installed: installationId })}`
}

export interface OAuthDeps {
  db: Db, clock: Clock, apps: AppsService, installations: InstallationsService, commerce: CommerceService, auth: AuthService
  /** ADMIN_URL, read when a token is issued (the admin_return_url's origin). */
  adminUrl: () => string
}

export function createOAuthService (deps: OAuthDeps) {
  const { db, clock } = deps

  /**
   * Who may install what, where: a MERCHANT installs a published app on their business within its
   * approved scopes; a DEVELOPER test-installs their own app (any status) on their sandbox. An unknown
   * client or a redirect_uri that does not match is shown on the consent screen; every later problem
   * goes back to the client (RFC 6749 §4.1.2.1).
   */
  async function resolve (user: SessionClaims, params: AuthorizationRequest): Promise<ResolvedRequest> {
    if (user.role === 'REVIEWER') throw forbidden('reviewer_cannot_install', 'Reviewers cannot install apps')
    const app = await deps.apps.findByClientId(params.client_id)
    if (app === null) throw authorizeError('invalid_client', 'Unknown client_id')
    if (params.redirect_uri !== app.redirectUrl) throw authorizeError('invalid_request', "redirect_uri does not match the app's registered redirect URL")
    const refuse = (code: OAuthErrorCode, description: string) => redirectedError(code, description, { redirectUri: params.redirect_uri, state: params.state })
    if (params.response_type === undefined) throw refuse('invalid_request', 'response_type is required (response_type=code)')
    if (params.response_type !== 'code') throw refuse('unsupported_response_type', 'Only response_type=code is supported')
    if (params.response_mode !== undefined && params.response_mode !== 'query') throw refuse('invalid_request', `response_mode=${params.response_mode} is not supported: only query`)
    if (params.code_challenge_method !== undefined && params.code_challenge_method !== 'S256') throw refuse('invalid_request', 'Only code_challenge_method=S256 is supported')
    if (params.code_challenge_method !== undefined && params.code_challenge === undefined) throw refuse('invalid_request', 'code_challenge_method without code_challenge')
    if (user.businessId === null) throw refuse('access_denied', 'The signed-in account has no business to install on')
    let allowed: string[]
    if (user.role === 'MERCHANT') {
      if (!app.isPublished) throw refuse('unauthorized_client', 'This app is not published yet')
      allowed = app.approvedScopes
    } else {
      if (app.developerId !== user.sub) throw refuse('unauthorized_client', 'Developers can test-install only their own apps')
      allowed = app.scopes
    }
    const requested = parseScopes(params.scope) ?? allowed
    const outside = requested.filter((s) => !allowed.includes(s))
    if (outside.length > 0) throw refuse('invalid_scope', `Scopes not approved for this app: ${outside.join(', ')}`)
    return { app, scopes: requested, businessId: user.businessId, isTestInstall: user.role === 'DEVELOPER' }
  }

  async function info (user: SessionClaims, params: AuthorizationRequest) {
    const resolved = await resolve(user, params)
    const found = await deps.commerce.findBusiness(resolved.businessId)
    const business = { id: resolved.businessId, name: found?.name ?? '', isSandbox: found?.isSandbox ?? false }
    const developerName = (await deps.auth.namesOf([resolved.app.developerId])).get(resolved.app.developerId)
    const installed = await deps.installations.activeFor(resolved.app.id, resolved.businessId)
    const { app } = resolved
    return {
      app: { id: app.id, name: app.name, slug: app.slug, description: app.description, iconUrl: app.iconUrl, developerName: developerName ?? '', status: app.status },
      scopes: resolved.scopes.map((name) => ({ name, description: SCOPE_DESCRIPTIONS[name as keyof typeof SCOPE_DESCRIPTIONS] ?? name })),
      business,
      isTestInstall: resolved.isTestInstall,
      alreadyInstalled: installed !== null
    }
  }

  /** The consent decision: a redirect carrying a one-time code (or access_denied) and the state. */
  async function authorize (user: SessionClaims, body: AuthorizeBodyType): Promise<string> {
    const resolved = await resolve(user, body)
    if (body.decision === 'deny') return withParams(body.redirect_uri, { error: 'access_denied', error_description: 'The merchant denied the request', state: body.state })
    const code = randomSecret('')
    await db.insert(oauthCodes).values({
      codeHash: sha256(code),
      appId: resolved.app.id,
      businessId: resolved.businessId,
      userId: user.sub,
      redirectUri: body.redirect_uri,
      scopes: resolved.scopes,
      isTestInstall: resolved.isTestInstall,
      codeChallenge: body.code_challenge ?? null,
      expiresAt: new Date(clock.nowMs() + AUTHORIZATION_CODE_TTL_MS)
    })
    return withParams(body.redirect_uri, { code, state: body.state })
  }

  /**
   * authorization_code grant. The code works once: a replay is refused and revokes the token it
   * issued (RFC 6749 §4.1.2), since someone else may hold the code.
   */
  async function exchange (app: AppRow, body: { grant_type?: string, code?: string, redirect_uri?: string, code_verifier?: string, client_id?: string }) {
    if (body.grant_type === undefined || body.grant_type === '') throw oauthError('invalid_request', 'grant_type is required (grant_type=authorization_code)')
    if (body.grant_type !== 'authorization_code') throw oauthError('unsupported_grant_type', 'Only grant_type=authorization_code is supported')
    if (body.code === undefined || body.code === '') throw oauthError('invalid_request', 'code is required')
    if (body.redirect_uri === undefined) throw oauthError('invalid_request', 'redirect_uri is required')
    if (body.client_id !== undefined && body.client_id !== app.clientId) throw oauthError('invalid_client', 'client_id does not match the authenticated client')
    const code = body.code
    const redirectUri = body.redirect_uri
    const outcome = await db.transaction(async (tx): Promise<{ error: string } | { issued: Issued }> => {
      const [row] = await tx.select().from(oauthCodes).where(eq(oauthCodes.codeHash, sha256(code))).for('update')
      if (row === undefined || row.appId !== app.id) return { error: 'The authorization code is invalid' }
      if (row.usedAt !== null) {
        if (row.installationId !== null) await deps.installations.in(tx).revokeToken(row.installationId)
        return { error: 'The authorization code was already used; the token it issued is revoked' }
      }
      if (row.expiresAt.getTime() <= clock.nowMs()) return { error: 'The authorization code has expired' }
      if (row.redirectUri !== redirectUri) return { error: 'redirect_uri does not match the authorization request' }
      if (row.codeChallenge !== null) {
        if (body.code_verifier === undefined || !VERIFIER_PATTERN.test(body.code_verifier)) return { error: 'code_verifier is missing or malformed' }
        if (!safeEqual(pkceChallenge(body.code_verifier), row.codeChallenge)) return { error: 'code_verifier does not match the code_challenge' }
      } else if (body.code_verifier !== undefined) {
        return { error: 'code_verifier sent for a code issued without code_challenge' }
      }
      const issued = await deps.installations.in(tx).install({
        app, businessId: row.businessId, scopes: row.scopes, userId: row.userId,
        isTestInstall: row.isTestInstall
      })
      await tx.update(oauthCodes).set({ usedAt: clock.now(), installationId: issued.installation.id }).where(eq(oauthCodes.codeHash, row.codeHash))
      return { issued }
    })
    if ('error' in outcome) throw oauthError('invalid_grant', outcome.error)
    const { installation, accessToken, webhookSecret } = outcome.issued
    return {
      access_token: accessToken,
      token_type: 'bearer' as const,
      scope: installation.grantedScopes.join(' '),
      installation_id: installation.id,
      business_id: installation.businessId,
      webhook_secret: webhookSecret,
      admin_return_url: adminReturnUrl(deps.adminUrl(), installation.id)
    }
  }

  /**
   * RFC 7009: an app revokes its own access token. That ends the installation: it is uninstalled
   * exactly as a merchant's uninstall does it (webhooks off, blocks removed, data erasure scheduled).
   * An unknown or already revoked token changes nothing, and the answer is the same (§2.2); a token
   * issued to another client is refused (§2.1) and left alone.
   */
  async function revoke (app: AppRow, token: string): Promise<'revoked' | 'unknown' | 'other_client'> {
    if (!ACCESS_TOKEN_PATTERN.test(token)) return 'unknown'
    const tokenHash = sha256(token)
    const found = await deps.installations.findByTokenHash(tokenHash)
    if (found === null) return 'unknown'
    if (found.appId !== app.id) return 'other_client'
    return await db.transaction(async (tx) => {
      // locked, and read again: a concurrent uninstall or token rotation wins
      const installation = await deps.installations.in(tx).getForBusiness(found.businessId, found.id, true)
        .catch((error: unknown) => { if (error instanceof HttpError && error.statusCode === 404) return null; throw error })
      if (installation === null || installation.accessTokenHash !== tokenHash) return 'unknown'
      await deps.installations.in(tx).uninstall(installation)
      return 'revoked'
    })
  }

  /**
   * Consents of a business whose code no app exchanged (DESIGN §16): the newest per app, while the code
   * is valid (PENDING) and for a day after (EXPIRED). Apps installed since are left out by the caller.
   */
  async function unexchangedConsents (businessId: string): Promise<UnexchangedConsent[]> {
    const rows = await db.select({ appId: oauthCodes.appId, scopes: oauthCodes.scopes, createdAt: oauthCodes.createdAt, expiresAt: oauthCodes.expiresAt })
      .from(oauthCodes)
      .where(and(eq(oauthCodes.businessId, businessId), isNull(oauthCodes.usedAt),
        gt(oauthCodes.expiresAt, new Date(clock.nowMs() - EXPIRED_CONSENT_SHOWN_MS))))
      .orderBy(desc(oauthCodes.createdAt))
    const newest = new Map<string, UnexchangedConsent>()
    for (const row of rows) {
      if (newest.has(row.appId)) continue
      const expired = row.expiresAt.getTime() <= clock.nowMs()
      newest.set(row.appId, { appId: row.appId, scopes: row.scopes, consentedAt: row.createdAt, expiresAt: row.expiresAt, expired })
    }
    return [...newest.values()]
  }

  return { resolve, info, authorize, exchange, revoke, unexchangedConsents }
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
    db: fastify.db, clock: fastify.clock, apps: fastify.apps, installations: fastify.installations, commerce: fastify.commerce, auth: fastify.auth,
    adminUrl: () => fastify.origins.adminUrl
  })
  fastify.decorate('oauth', oauth)
  fastify.installations.addConsentSource(oauth.unexchangedConsents)
  fastify.decorate('deviceFlow', createDeviceFlow({
    db: fastify.db,
    clock: fastify.clock,
    intervalSeconds: fastify.config.devicePollIntervalSeconds,
    verificationUri: () => `${fastify.origins.adminUrl}${DEVICE_SCREEN_PATH}`,
    issueToken: async (userId, name) => {
      const { token, view } = await fastify.cliTokens.issue(userId, name)
      return { token, expiresAt: view.expiresAt }
    }
  }))
}, { name: 'oauth', dependencies: ['db', 'clock', 'apps', 'installations', 'commerce', 'auth', 'auth-guards'] })
