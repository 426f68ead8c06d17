import { useState } from 'preact/hooks'
import { useSignIn } from '../../lib/use-sign-in.ts'
import { allShown, problemsByField } from '../../lib/field-errors.ts'
import { ErrorMessage, FieldError } from '../../components/states/index.tsx'
import styles from './style.module.css'

const FIELDS = ['name', 'businessName', 'email', 'password'] as const

export default function Register () {
  const { send, busy, error, problems } = useSignIn('/auth/register')
  // the API's problems go under their fields ("Is too common…"), never as its raw "body/password …" text
  const byField = problemsByField(problems)
  const invalid = (field: string) => byField[field] !== undefined ? { 'aria-invalid': true, 'aria-describedby': `register-${field}-error` } : {}
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
      <ErrorMessage message={error} problems={problems} marked={allShown(problems, FIELDS)} />
      <form onSubmit={submit}>
        <div class={styles.roles} role='radiogroup' aria-label='Account type'>
          <label><input type='radio' name='role' checked={role === 'DEVELOPER'} onChange={() => setRole('DEVELOPER')} />Developer</label>
          <label><input type='radio' name='role' checked={role === 'MERCHANT'} onChange={() => setRole('MERCHANT')} />Merchant</label>
        </div>
        <label>Name<input name='name' required maxLength={100} {...invalid('name')} /></label>
        <FieldError id='register-name-error' message={byField.name} />
        {role === 'MERCHANT' && <label>Business name<input name='businessName' required maxLength={100} {...invalid('businessName')} /></label>}
        <FieldError id='register-businessName-error' message={byField.businessName} />
        <label>Email<input name='email' type='email' autocomplete='email' required {...invalid('email')} /></label>
        <FieldError id='register-email-error' message={byField.email} />
        <label>
          Password (10 characters or more, not a common one)
          <input name='password' type='password' autocomplete='new-password' minLength={10} required {...invalid('password')} />
        </label>
        <FieldError id='register-password-error' message={byField.password} />
        <button type='submit' disabled={busy}>{busy ? 'Creating…' : 'Create account'}</button>
      </form>
      <p class='muted'>Have an account? <a href='/login'>Log in</a></p>
    </div>
  )
}
