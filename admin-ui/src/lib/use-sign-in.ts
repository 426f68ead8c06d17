import { useLocation } from 'preact-iso'
import { useSession, type SessionUser, type StoredSession } from './use-session.tsx'
import { useAction } from './use-action.ts'

/** Each role's own home (DESIGN §17): the merchant's admin, the developer's portal, the review queue. */
export const ROLE_HOME: Record<SessionUser['role'], string> = { MERCHANT: '/admin', DEVELOPER: '/portal', REVIEWER: '/reviewer' }

/** Where to go after signing in: `?next=` when it is a local path, else the role's home. */
export function nextPath (query: Record<string, string>, role?: SessionUser['role']): string {
  const next = query.next
  if (typeof next === 'string' && next.startsWith('/') && !next.startsWith('//') && !next.startsWith('/\\')) return next
  return role === undefined ? '/' : ROLE_HOME[role]
}

/** Posts to /auth/login or /auth/register; on success signs in and goes to `?next=` (or the role's home). */
export function useSignIn (path: '/auth/login' | '/auth/register') {
  const { api, signIn } = useSession()
  const { route, query } = useLocation()
  const action = useAction()
  async function send (body: Record<string, unknown>): Promise<void> {
    const result = await action.run(async () => await api.post<StoredSession>(path, body))
    if (result === null) return
    signIn(result)
    route(nextPath(query, result.user.role))
  }
  return { send, busy: action.busy, error: action.error, problems: action.problems, query }
}
