import { createHmac, timingSafeEqual } from 'node:crypto'

/** What a platform session token says: which merchant (user, business, installation) is looking at the app's admin page. */
export interface SessionTokenClaims {
  /** The admin panel's origin (ADMIN_URL). */
  iss: string
  /** The app's client id. */
  aud: string
  /** The user id. */
  sub: string
  /** The user's role in the business (DESIGN §24): `OWNER` or `STAFF`. Tokens from before staff existed have none. */
  role?: 'OWNER' | 'STAFF'
  /** What the user may use in the admin: orders, products, reviews, pages, settings, apps, billing (the owner: all). */
  permissions?: string[]
  businessId: string
  installationId: string
  iat: number
  exp: number
  jti: string
}

export interface VerifySessionTokenOptions {
  /** The installation's webhook secret, which signs its session tokens. */
  secret: string
  /** The app's client id: the token's audience. */
  clientId: string
  /** The admin origin the token must come from; otherwise any http(s) origin is accepted as issuer. */
  issuer?: string
  /** Seconds of clock skew allowed on `iat`/`exp` (default 5). */
  clockToleranceSeconds?: number
  /** Current time in ms (tests). */
  now?: number
}

export class SessionTokenError extends Error {
  name = 'SessionTokenError'
}

/** Longest lifetime the platform issues; a longer one is refused even if signed. */
export const MAX_SESSION_TOKEN_SECONDS = 300

function decodeJson (part: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(Buffer.from(part, 'base64url').toString('utf8'))
    if (typeof value === 'object' && value !== null && !Array.isArray(value)) return value as Record<string, unknown>
  } catch {}
  throw new SessionTokenError('Malformed session token')
}

/**
 * Checks a session token from `service:init` or `service:session-token` (a JWT, HS256, keyed with the
 * installation's webhook secret): signature, algorithm, audience (your client id), issuer, expiry and
 * lifetime. Returns the claims; throws SessionTokenError otherwise. Send it from the admin page to your
 * backend and verify it there: an unsigned businessId in a URL proves nothing.
 */
export function verifySessionToken (token: string, options: VerifySessionTokenOptions): SessionTokenClaims {
  if (typeof options.secret !== 'string' || options.secret === '') throw new TypeError('secret is required')
  if (typeof options.clientId !== 'string' || options.clientId === '') throw new TypeError('clientId is required')
  const parts = typeof token === 'string' ? token.split('.') : []
  if (parts.length !== 3) throw new SessionTokenError('Malformed session token')
  const [header, payload, signature] = parts
  const head = decodeJson(header)
  if (head.alg !== 'HS256') throw new SessionTokenError('Session token must be signed with HS256')
  const expected = createHmac('sha256', options.secret).update(`${header}.${payload}`).digest()
  const given = Buffer.from(signature, 'base64url')
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw new SessionTokenError('Invalid session token signature')
  const claims = decodeJson(payload)
  for (const name of ['iss', 'aud', 'sub', 'businessId', 'installationId', 'jti']) {
    if (typeof claims[name] !== 'string' || claims[name] === '') throw new SessionTokenError(`Session token lacks ${name}`)
  }
  for (const name of ['iat', 'exp']) {
    if (typeof claims[name] !== 'number' || !Number.isFinite(claims[name])) throw new SessionTokenError(`Session token lacks ${name}`)
  }
  if (claims.aud !== options.clientId) throw new SessionTokenError('Session token is for another app')
  if (options.issuer !== undefined ? claims.iss !== options.issuer.replace(/\/$/, '') : !/^https?:\/\/[^/]+$/.test(claims.iss as string)) {
    throw new SessionTokenError('Session token has an unexpected issuer')
  }
  const now = (options.now ?? Date.now()) / 1000
  const tolerance = options.clockToleranceSeconds ?? 5
  const iat = claims.iat as number
  const exp = claims.exp as number
  if (exp <= now - tolerance) throw new SessionTokenError('Session token expired')
  if (iat > now + tolerance) throw new SessionTokenError('Session token issued in the future')
  if (exp - iat > MAX_SESSION_TOKEN_SECONDS) throw new SessionTokenError('Session token lives too long')
  return claims as unknown as SessionTokenClaims
}
