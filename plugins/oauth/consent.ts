import { and, desc, eq, gt, isNull } from 'drizzle-orm'
import { oauthCodes } from '../../server/db/schema/index.ts'
import { randomSecret, sha256 } from '../../server/crypto.ts'
import type { SessionClaims } from '../auth/guards.ts'
import { listedPricing, type AppRow } from '../apps/service.ts'
import type { UnexchangedConsent } from '../installations/service.ts'
import type { OAuthContext } from './context.ts'
import { authorizeError, forbidden, redirectedError, type OAuthErrorCode } from './errors.ts'
import { AUTHORIZATION_CODE_TTL_MS, SCOPE_DESCRIPTIONS, type AuthorizationRequest, type AuthorizeBodyType } from './schemas.ts'

/** An approved install whose code was not exchanged: shown as EXPIRED this long after the code expired. */
const EXPIRED_CONSENT_SHOWN_MS = 24 * 60 * 60 * 1000

export interface ResolvedRequest { app: AppRow, scopes: string[], businessId: string, isTestInstall: boolean }

export function parseScopes (scope: string | undefined): string[] | null {
  if (scope === undefined || scope.trim() === '') return null
  return [...new Set(scope.split(/[\s,]+/).filter((s) => s !== ''))]
}

function withParams (base: string, params: Record<string, string | undefined>): string {
  const url = new URL(base)
  for (const [key, value] of Object.entries(params)) if (value !== undefined) url.searchParams.set(key, value)
  return url.toString()
}

/**
 * Who may install what, where: a MERCHANT installs a published app on their business within its
 * approved scopes; a DEVELOPER test-installs their own app (any status) on their sandbox. An unknown
 * client or a redirect_uri that does not match is shown on the consent screen; every later problem
 * goes back to the client (RFC 6749 §4.1.2.1).
 */
export async function resolve ({ apps }: OAuthContext, user: SessionClaims, params: AuthorizationRequest): Promise<ResolvedRequest> {
  if (user.role === 'REVIEWER') throw forbidden('reviewer_cannot_install', 'Reviewers cannot install apps')
  // installing is the apps permission's (DESIGN §24); the guards put the member's current permissions on the session
  if (user.permissions !== undefined && !user.permissions.includes('apps')) throw forbidden('permission_missing', "Installing apps needs the apps permission: ask the business's owner")
  const app = await apps.findByClientId(params.client_id)
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
  // a developer working as another business's staff installs as that business does: published apps only, never a test install
  const testInstall = user.role === 'DEVELOPER' && user.businessRole !== 'STAFF'
  if (!testInstall) {
    if (!app.isPublished) throw refuse('unauthorized_client', 'This app is not published yet')
    allowed = app.approvedScopes
  } else {
    if (app.developerId !== user.sub) throw refuse('unauthorized_client', 'Developers can test-install only their own apps')
    allowed = app.scopes
  }
  const requested = parseScopes(params.scope) ?? allowed
  const outside = requested.filter((s) => !allowed.includes(s))
  if (outside.length > 0) throw refuse('invalid_scope', `Scopes not approved for this app: ${outside.join(', ')}`)
  return { app, scopes: requested, businessId: user.businessId, isTestInstall: testInstall }
}

export async function info (context: OAuthContext, user: SessionClaims, params: AuthorizationRequest) {
  const resolved = await resolve(context, user, params)
  const found = await context.commerce.findBusiness(resolved.businessId)
  const business = { id: resolved.businessId, name: found?.name ?? '', isSandbox: found?.isSandbox ?? false }
  const developerName = (await context.auth.namesOf([resolved.app.developerId])).get(resolved.app.developerId)
  const installed = await context.installations.activeFor(resolved.app.id, resolved.businessId)
  const { app } = resolved
  return {
    app: { id: app.id, name: app.name, slug: app.slug, description: app.description, iconUrl: app.iconUrl, developerName: developerName ?? '', status: app.status },
    scopes: resolved.scopes.map((name) => ({ name, description: SCOPE_DESCRIPTIONS[name as keyof typeof SCOPE_DESCRIPTIONS] ?? name })),
    // a test install may charge from the edited pricing, a merchant's install only from the approved one (DESIGN §23)
    pricing: resolved.isTestInstall ? app.pricing : listedPricing(app),
    business,
    isTestInstall: resolved.isTestInstall,
    alreadyInstalled: installed !== null
  }
}

/** The consent decision: a redirect carrying a one-time code (or access_denied) and the state. */
export async function authorize (context: OAuthContext, user: SessionClaims, body: AuthorizeBodyType): Promise<string> {
  const resolved = await resolve(context, user, body)
  if (body.decision === 'deny') return withParams(body.redirect_uri, { error: 'access_denied', error_description: 'The merchant denied the request', state: body.state })
  const code = randomSecret('')
  await context.executor.insert(oauthCodes).values({
    codeHash: sha256(code),
    appId: resolved.app.id,
    businessId: resolved.businessId,
    userId: user.sub,
    redirectUri: body.redirect_uri,
    scopes: resolved.scopes,
    isTestInstall: resolved.isTestInstall,
    codeChallenge: body.code_challenge ?? null,
    expiresAt: new Date(context.clock.nowMs() + AUTHORIZATION_CODE_TTL_MS)
  })
  return withParams(body.redirect_uri, { code, state: body.state })
}

/**
 * Consents of a business whose code no app exchanged (DESIGN §16): the newest per app, while the code
 * is valid (PENDING) and for a day after (EXPIRED). Apps installed since are left out by the caller.
 */
export async function unexchangedConsents ({ executor, clock }: OAuthContext, businessId: string): Promise<UnexchangedConsent[]> {
  const rows = await executor.select({ appId: oauthCodes.appId, scopes: oauthCodes.scopes, createdAt: oauthCodes.createdAt, expiresAt: oauthCodes.expiresAt })
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
