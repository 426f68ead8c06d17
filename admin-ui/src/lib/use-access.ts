import { useEffect } from 'preact/hooks'
import { useResource } from './use-resource.ts'
import { useSession, type SessionUser } from './use-session.tsx'
import { PERMISSIONS, type BusinessRole, type Permission, type SessionBusiness } from './staff-types.ts'

/** What the signed-in user may do on the session's business (DESIGN §24). */
export interface Access {
  /** The business the session acts on; null until known, or when the user belongs to none. */
  business: SessionBusiness | null
  role: BusinessRole | null
  /** Known: /auth/me answered, or the stored session carried the business. */
  known: boolean
  can: (permission: Permission) => boolean
}

/**
 * The session business's role and permissions: the stored session's at once, then GET /auth/me's (the owner
 * may have changed them since sign-in), read again whenever the API refuses a call for a missing permission.
 */
export function useAccess (): Access {
  const { session, api, accessChecks, signIn } = useSession()
  const canAdmin = session !== null && (session.user.role === 'MERCHANT' || session.user.role === 'DEVELOPER')
  const me = useResource<{ user: SessionUser, business: SessionBusiness | null }>(
    canAdmin ? `auth-me-${session.token.slice(-16)}-${accessChecks}` : null,
    () => api.get('/auth/me')
  )
  const stored = session?.business
  // the stored session follows: the next screen starts from what the owner allows now
  useEffect(() => {
    if (session === null || me.data === null || JSON.stringify(me.data.business) === JSON.stringify(stored)) return
    signIn({ ...session, business: me.data.business })
  }, [me.data])
  const business = me.data !== null ? me.data.business : stored ?? null
  const known = me.data !== null || stored !== undefined
  // a business answer without permissions (a server before staff) is its owner's
  const permissions: readonly string[] = business === null ? [] : business.permissions ?? PERMISSIONS
  return {
    business,
    role: business === null ? null : business.role ?? 'OWNER',
    known,
    can: (permission) => permissions.includes(permission)
  }
}
