import { useSignIn } from '../../lib/use-sign-in.ts'
import { useSession } from '../../lib/use-session.tsx'
import styles from '../register/style.module.css'

export default function Login () {
  const { send, busy, error, query } = useSignIn('/auth/login')
  const { expired } = useSession()

  async function submit (event: Event) {
    event.preventDefault()
    const form = new FormData(event.currentTarget as HTMLFormElement)
    await send({ email: form.get('email'), password: form.get('password') })
  }

  return (
    <div class={`panel ${styles.card}`}>
      <h1>Log in</h1>
      {expired && error === null && <p class='notice' role='status' data-testid='session-expired'>Your session expired. Log in again to continue.</p>}
      {error !== null && <div class='error' role='alert'>{error}</div>}
      <form onSubmit={submit}>
        <label>Email<input name='email' type='email' autocomplete='email' required /></label>
        <label>Password<input name='password' type='password' autocomplete='current-password' required /></label>
        <button type='submit' disabled={busy}>{busy ? 'Signing in…' : 'Log in'}</button>
      </form>
      <p class='muted'>No account? <a href={`/register${query.next !== undefined ? `?next=${encodeURIComponent(query.next)}` : ''}`}>Register</a></p>
    </div>
  )
}
