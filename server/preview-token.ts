import { createHmac } from 'node:crypto'
import { safeEqual } from './crypto.ts'
import { signJwtHs256, unixSeconds } from './signing.ts'

/** Editor preview tokens live 10 minutes (DESIGN §16): the editor asks for a new one on each reload. */
export const PREVIEW_TOKEN_SECONDS = 600
/** A token this long no longer fits a URL every proxy passes: the draft is too large to preview. */
export const MAX_PREVIEW_TOKEN_LENGTH = 7000
const AUDIENCE = 'storefront-preview'

export interface PreviewBlock { id: string, installationId: string, blockType: string, settings: Record<string, unknown> }
export interface PreviewClaims { businessId: string, pageId: string, blocks: PreviewBlock[], exp: number }

/** Its own key, derived from the session secret, so a preview token can never pass as a session (or the reverse). */
const keyOf = (secret: string) => createHmac('sha256', secret).update(AUDIENCE).digest('base64url')

/** A signed draft of a page (HS256 JWT): the storefront renders it without any session. */
export function signPreviewToken (secret: string, draft: Omit<PreviewClaims, 'exp'>, now: Date): { token: string, expiresAt: Date } {
  const exp = unixSeconds(now) + PREVIEW_TOKEN_SECONDS
  return { token: signJwtHs256({ aud: AUDIENCE, ...draft, exp }, keyOf(secret)), expiresAt: new Date(exp * 1000) }
}

/** The draft a valid, unexpired preview token carries; null for anything else. */
export function verifyPreviewToken (secret: string, token: string, now: Date): PreviewClaims | null {
  const parts = token.split('.')
  if (parts.length !== 3 || token.length > MAX_PREVIEW_TOKEN_LENGTH) return null
  const expected = createHmac('sha256', keyOf(secret)).update(`${parts[0]}.${parts[1]}`).digest('base64url')
  if (!safeEqual(expected, parts[2])) return null
  try {
    const header = JSON.parse(Buffer.from(parts[0], 'base64url').toString('utf8')) as { alg?: unknown }
    const claims = JSON.parse(Buffer.from(parts[1], 'base64url').toString('utf8')) as Record<string, unknown>
    if (header.alg !== 'HS256' || claims.aud !== AUDIENCE) return null
    if (typeof claims.exp !== 'number' || claims.exp <= unixSeconds(now)) return null
    if (typeof claims.businessId !== 'string' || typeof claims.pageId !== 'string' || !Array.isArray(claims.blocks)) return null
    return { businessId: claims.businessId, pageId: claims.pageId, blocks: claims.blocks as PreviewBlock[], exp: claims.exp }
  } catch {
    return null
  }
}
