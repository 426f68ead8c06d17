import { createHash } from 'node:crypto'
import { eq } from 'drizzle-orm'
import { oauthCodes } from '../../server/db/schema/index.ts'
import { safeEqual, sha256 } from '../../server/crypto.ts'
import { HttpError } from '../../server/http-errors.ts'
import type { AppRow } from '../apps/service.ts'
import type { Issued } from '../installations/service.ts'
import type { OAuthContext } from './context.ts'
import { oauthError } from './errors.ts'
import { PKCE_VERIFIER_PATTERN } from './schemas.ts'

const VERIFIER_PATTERN = new RegExp(PKCE_VERIFIER_PATTERN)
const ACCESS_TOKEN_PATTERN = /^fbat_[A-Za-z0-9_-]{20,200}$/

export const pkceChallenge = (verifier: string): string => createHash('sha256').update(verifier).digest('base64url')

/** Where an app may send the merchant back after an install (the admin's apps screen, which names the new install). */
export function adminReturnUrl (adminUrl: string, installationId: string): string {
  return `${adminUrl}/admin/apps?${new URLSearchParams({ installed: installationId })}`
}

export interface TokenRequest { grant_type?: string, code?: string, redirect_uri?: string, code_verifier?: string, client_id?: string }

/**
 * authorization_code grant. The code works once: a replay is refused and revokes the token it
 * issued (RFC 6749 §4.1.2), since someone else may hold the code.
 */
export async function exchange ({ executor, clock, installations, adminUrl }: OAuthContext, app: AppRow, body: TokenRequest) {
  if (body.grant_type === undefined || body.grant_type === '') throw oauthError('invalid_request', 'grant_type is required (grant_type=authorization_code)')
  if (body.grant_type !== 'authorization_code') throw oauthError('unsupported_grant_type', 'Only grant_type=authorization_code is supported')
  if (body.code === undefined || body.code === '') throw oauthError('invalid_request', 'code is required')
  if (body.redirect_uri === undefined) throw oauthError('invalid_request', 'redirect_uri is required')
  if (body.client_id !== undefined && body.client_id !== app.clientId) throw oauthError('invalid_client', 'client_id does not match the authenticated client')
  const code = body.code
  const redirectUri = body.redirect_uri
  const outcome = await executor.transaction(async (tx): Promise<{ error: string } | { issued: Issued }> => {
    const [row] = await tx.select().from(oauthCodes).where(eq(oauthCodes.codeHash, sha256(code))).for('update')
    if (row === undefined || row.appId !== app.id) return { error: 'The authorization code is invalid' }
    if (row.usedAt !== null) {
      if (row.installationId !== null) await installations.in(tx).revokeToken(row.installationId)
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
    const issued = await installations.in(tx).install({
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
    admin_return_url: adminReturnUrl(adminUrl(), installation.id)
  }
}

/**
 * RFC 7009: an app revokes its own access token. That ends the installation: it is uninstalled
 * exactly as a merchant's uninstall does it (webhooks off, blocks removed, data erasure scheduled).
 * An unknown or already revoked token changes nothing, and the answer is the same (§2.2); a token
 * issued to another client is refused (§2.1) and left alone.
 */
export async function revoke ({ executor, installations }: OAuthContext, app: AppRow, token: string): Promise<'revoked' | 'unknown' | 'other_client'> {
  if (!ACCESS_TOKEN_PATTERN.test(token)) return 'unknown'
  const tokenHash = sha256(token)
  const found = await installations.findByTokenHash(tokenHash)
  if (found === null) return 'unknown'
  if (found.appId !== app.id) return 'other_client'
  return await executor.transaction(async (tx) => {
    // locked, and read again: a concurrent uninstall or token rotation wins
    const installation = await installations.in(tx).getForBusiness(found.businessId, found.id, true)
      .catch((error: unknown) => { if (error instanceof HttpError && error.statusCode === 404) return null; throw error })
    if (installation === null || installation.accessTokenHash !== tokenHash) return 'unknown'
    await installations.in(tx).uninstall(installation)
    return 'revoked'
  })
}
