import type { Role } from '../../server/db/schema/index.ts'

export interface SessionClaims { sub: string, role: Role, businessId: string | null, email: string }
/**
 * What a verified session carries: the claims, its id and its expiry (seconds). `cli` marks a
 * developer CLI token (DESIGN §19), whose id is the token's row id.
 */
export type VerifiedSession = SessionClaims & { jti: string, exp: number, cli?: boolean }
