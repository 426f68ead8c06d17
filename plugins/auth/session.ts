import type { Role } from '../../server/db/schema/index.ts'
import type { BusinessRole, Permission } from '../../sdk/src/contract/staff.ts'

/**
 * A session's claims: the user (`sub`, their account `role`, `email`) and the business they act on,
 * with their place in it (DESIGN §24): `businessRole` OWNER or STAFF, and a STAFF session's `memberId`.
 * `permissions` are those the session was signed with; the guards put the member's current ones in
 * their place on each request (an edit or a removal applies at once).
 */
export interface SessionClaims {
  sub: string
  role: Role
  businessId: string | null
  email: string
  businessRole?: BusinessRole
  memberId?: string
  permissions?: Permission[]
}
/**
 * What a verified session carries: the claims, its id and its expiry (seconds). `cli` marks a
 * developer CLI token (DESIGN §19), whose id is the token's row id.
 */
export type VerifiedSession = SessionClaims & { jti: string, exp: number, cli?: boolean }
