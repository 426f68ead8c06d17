import { createContext, type ComponentChildren } from 'preact'
import { useContext, useMemo, useState } from 'preact/hooks'
import { createApiClient, type ApiClient } from './api.ts'

export interface SessionUser { id: string, email: string, name: string, role: 'DEVELOPER' | 'MERCHANT' | 'REVIEWER', businessId: string | null }
interface StoredSession { token: string, user: SessionUser }

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
  api: ApiClient
  signIn: (session: StoredSession) => void
  signOut: () => void
}

const SessionContext = createContext<SessionValue | null>(null)

/** The JWT lives in localStorage; the API client reads it on every call and forgets it on a 401. */
export function SessionProvider ({ children }: { children: ComponentChildren }) {
  const [session, setSession] = useState<StoredSession | null>(readStored)
  const value = useMemo<SessionValue>(() => {
    const signOut = () => { localStorage.removeItem(STORAGE_KEY); setSession(null) }
    return {
      session,
      api: createApiClient({ getToken: () => readStored()?.token ?? null, onUnauthorized: signOut }),
      signIn: (next) => { localStorage.setItem(STORAGE_KEY, JSON.stringify(next)); setSession(next) },
      signOut
    }
  }, [session])
  return <SessionContext.Provider value={value}>{children}</SessionContext.Provider>
}

export function useSession (): SessionValue {
  const value = useContext(SessionContext)
  if (value === null) throw new Error('useSession outside SessionProvider')
  return value
}
