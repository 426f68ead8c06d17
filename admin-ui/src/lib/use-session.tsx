import { createContext, type ComponentChildren } from 'preact'
import { useContext, useMemo, useState } from 'preact/hooks'
import { createApiClient, type ApiClient } from './api.ts'
import type { SessionBusiness } from './staff-types.ts'

export interface SessionUser { id: string, email: string, name: string, role: 'DEVELOPER' | 'MERCHANT' | 'REVIEWER', businessId: string | null }
/**
 * What a sign-in answers: the token, the user and the business the session acts on, with the user's role and
 * permissions there (DESIGN §24). A session stored before staff existed has no `business`: the admin asks /auth/me.
 */
export interface StoredSession { token: string, user: SessionUser, businessId?: string | null, business?: SessionBusiness | null }

const STORAGE_KEY = 'app-platform.session'

function readStored (): StoredSession | null {
  try {
    const raw = localStorage.getItem(STORAGE_KEY)
    return raw === null ? null : JSON.parse(raw) as StoredSession
  } catch {
    return null
  }
}

interface SessionValue {
  session: StoredSession | null
  /** The last session ended on a 401 (expired or signed out elsewhere): the login screen says so. */
  expired: boolean
  /** Grows each time the API refused a call for a missing permission: the admin reads its access again. */
  accessChecks: number
  api: ApiClient
  signIn: (session: StoredSession) => void
  /** Revokes the session on the server (POST /auth/logout), then forgets it. */
  signOut: () => Promise<void>
}

const SessionContext = createContext<SessionValue | null>(null)

/**
 * The JWT lives in the admin origin's own localStorage, which the storefront and app frames (other
 * origins) cannot read; no cookie carries it (DESIGN §14). The API client reads it on every call
 * and forgets it on a 401.
 */
export function SessionProvider ({ children }: { children: ComponentChildren }) {
  const [session, setSession] = useState<StoredSession | null>(readStored)
  const [expired, setExpired] = useState(false)
  const [accessChecks, setAccessChecks] = useState(0)
  const value = useMemo<SessionValue>(() => {
    const forget = () => { localStorage.removeItem(STORAGE_KEY); setSession(null) }
    const api = createApiClient({
      getToken: () => readStored()?.token ?? null,
      onUnauthorized: () => { forget(); setExpired(true) },
      onPermissionMissing: () => setAccessChecks((n) => n + 1)
    })
    return {
      session,
      expired,
      accessChecks,
      api,
      signIn: (next) => { localStorage.setItem(STORAGE_KEY, JSON.stringify(next)); setExpired(false); setSession(next) },
      signOut: async () => {
        await api.post('/auth/logout').catch(() => {})
        forget()
      }
    }
  }, [session, expired, accessChecks])
  return <SessionContext.Provider value={value}>{children}</SessionContext.Provider>
}

export function useSession (): SessionValue {
  const value = useContext(SessionContext)
  if (value === null) throw new Error('useSession outside SessionProvider')
  return value
}
