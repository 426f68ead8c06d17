import { useLocation } from 'preact-iso'
import { useSession, type SessionUser } from './use-session.tsx'
import { useAction } from './use-action.ts'

/** Where to go after signing in: `?next=` when it is a local path, home otherwise. */
export function nextPath (query: Record<string, string>): string {
  const next = query.next
  return typeof next === 'string' && next.startsWith('/') && !next.startsWith('//') ? next : '/'
}

/** Posts to /auth/login or /auth/register; on success signs in and goes to `?next=` (or home). */
export function useSignIn (path: '/auth/login' | '/auth/register') {
  const { api, signIn } = useSession()
  const { route, query } = useLocation()
  const action = useAction()
  async function send (body: Record<string, unknown>): Promise<void> {
    const result = await action.run(async () => await api.post<{ token: string, user: SessionUser }>(path, body))
    if (result === null) return
    signIn(result)
    route(nextPath(query))
  }
  return { send, busy: action.busy, error: action.error, query }
}
