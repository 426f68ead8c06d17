import { useState } from 'preact/hooks'
import { useSignIn } from '../../lib/use-sign-in.ts'
import styles from './style.module.css'

export default function Register () {
  const { send, busy, error } = useSignIn('/auth/register')
  const [role, setRole] = useState<'DEVELOPER' | 'MERCHANT'>('DEVELOPER')

  async function submit (event: Event) {
    event.preventDefault()
    const form = new FormData(event.currentTarget as HTMLFormElement)
    const body: Record<string, unknown> = { email: form.get('email'), password: form.get('password'), name: form.get('name'), role }
    if (role === 'MERCHANT') body.businessName = form.get('businessName')
    await send(body)
  }

  return (
    <div class={`panel ${styles.card}`}>
      <h1>Create an account</h1>
      {error !== null && <div class='error' role='alert'>{error}</div>}
      <form onSubmit={submit}>
        <div class={styles.roles} role='radiogroup' aria-label='Account type'>
          <label><input type='radio' name='role' checked={role === 'DEVELOPER'} onChange={() => setRole('DEVELOPER')} />Developer</label>
          <label><input type='radio' name='role' checked={role === 'MERCHANT'} onChange={() => setRole('MERCHANT')} />Merchant</label>
        </div>
        <label>Name<input name='name' required maxLength={100} /></label>
        {role === 'MERCHANT' && <label>Business name<input name='businessName' required maxLength={100} /></label>}
        <label>Email<input name='email' type='email' autocomplete='email' required /></label>
        <label>Password (10 characters or more, not a common one)<input name='password' type='password' autocomplete='new-password' minLength={10} required /></label>
        <button type='submit' disabled={busy}>{busy ? 'Creating…' : 'Create account'}</button>
      </form>
      <p class='muted'>Have an account? <a href='/login'>Log in</a></p>
    </div>
  )
}
