import { useState } from 'preact/hooks'
import { useLocation } from 'preact-iso'
import { useSession, type SessionUser } from '../../lib/use-session.tsx'
import { ApiError } from '../../lib/api.ts'
import { nextPath } from '../login/index.tsx'
import styles from './style.module.css'

export default function Register () {
  const { api, signIn } = useSession()
  const { route, query } = useLocation()
  const [role, setRole] = useState<'DEVELOPER' | 'MERCHANT'>('DEVELOPER')
  const [error, setError] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)

  async function submit (event: Event) {
    event.preventDefault()
    const form = new FormData(event.currentTarget as HTMLFormElement)
    const body: Record<string, unknown> = { email: form.get('email'), password: form.get('password'), name: form.get('name'), role }
    if (role === 'MERCHANT') body.businessName = form.get('businessName')
    setBusy(true)
    setError(null)
    try {
      const result = await api.post<{ token: string, user: SessionUser }>('/auth/register', body)
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
      <h1>Create an account</h1>
      {error !== null && <div class="error" role="alert">{error}</div>}
      <form onSubmit={submit}>
        <div class={styles.roles} role="radiogroup" aria-label="Account type">
          <label><input type="radio" name="role" checked={role === 'DEVELOPER'} onChange={() => setRole('DEVELOPER')} />Developer</label>
          <label><input type="radio" name="role" checked={role === 'MERCHANT'} onChange={() => setRole('MERCHANT')} />Merchant</label>
        </div>
        <label>Name<input name="name" required maxLength={100} /></label>
        {role === 'MERCHANT' && <label>Business name<input name="businessName" required maxLength={100} /></label>}
        <label>Email<input name="email" type="email" autocomplete="email" required /></label>
        <label>Password (8 characters or more)<input name="password" type="password" autocomplete="new-password" minLength={8} required /></label>
        <button type="submit" disabled={busy}>{busy ? 'Creating…' : 'Create account'}</button>
      </form>
      <p class="muted">Have an account? <a href="/login">Log in</a></p>
    </div>
  )
}
