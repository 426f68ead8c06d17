import { useState } from 'preact/hooks'
import { useLocation } from 'preact-iso'
import { useSession, type SessionUser } from '../../lib/use-session.tsx'
import { ApiError } from '../../lib/api.ts'
import styles from '../register/style.module.css'

/** Where to go after signing in: `?next=` when it is a local path, home otherwise. */
export function nextPath (query: Record<string, string>): string {
  const next = query.next
  return typeof next === 'string' && next.startsWith('/') && !next.startsWith('//') ? next : '/'
}

export default function Login () {
  const { api, signIn } = useSession()
  const { route, query } = useLocation()
  const [error, setError] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)

  async function submit (event: Event) {
    event.preventDefault()
    const form = new FormData(event.currentTarget as HTMLFormElement)
    setBusy(true)
    setError(null)
    try {
      const result = await api.post<{ token: string, user: SessionUser }>('/auth/login', { email: form.get('email'), password: form.get('password') })
      signIn(result)
      route(nextPath(query))
    } catch (e) {
      setError(e instanceof ApiError ? e.message : 'Could not reach the server')
    } finally {
      setBusy(false)
    }
  }

  return (
    <div class={`panel ${styles.card}`}>
      <h1>Log in</h1>
      {error !== null && <div class="error" role="alert">{error}</div>}
      <form onSubmit={submit}>
        <label>Email<input name="email" type="email" autocomplete="email" required /></label>
        <label>Password<input name="password" type="password" autocomplete="current-password" required /></label>
        <button type="submit" disabled={busy}>{busy ? 'Signing in…' : 'Log in'}</button>
      </form>
      <p class="muted">No account? <a href={`/register${query.next !== undefined ? `?next=${encodeURIComponent(query.next)}` : ''}`}>Register</a></p>
    </div>
  )
}
