import { useSession, type StoredSession } from '../../lib/use-session.tsx'
import { useAction } from '../../lib/use-action.ts'
import { allShown, problemsByField } from '../../lib/field-errors.ts'
import { ErrorMessage, FieldError } from '../../components/states/index.tsx'
import type { InvitationPreview } from '../../lib/staff-types.ts'
import styles from './style.module.css'

const FIELDS = ['name', 'email', 'password'] as const

/** The new session is for the joined business: a full load, so every screen reads it afresh. */
export function openAdmin (): void {
  window.location.assign('/admin')
}

/** A new person: their name and a password; the account is made for the invited email and joins at once. */
function SignUp ({ token, invitation }: { token: string, invitation: InvitationPreview }) {
  const { api, signIn } = useSession()
  const action = useAction()
  const byField = problemsByField(action.problems)
  const invalid = (field: string) => byField[field] !== undefined ? { 'aria-invalid': true, 'aria-describedby': `invite-signup-${field}-error` } : {}
  async function submit (event: Event) {
    event.preventDefault()
    const form = new FormData(event.currentTarget as HTMLFormElement)
    const session = await action.run(() => api.post<StoredSession>('/auth/register', {
      email: invitation.email, password: form.get('password'), name: form.get('name'), role: 'MERCHANT', invitationToken: token
    }))
    if (session === null) return
    signIn(session)
    openAdmin()
  }
  return (
    <form class={styles.form} onSubmit={(e) => { void submit(e) }} aria-labelledby='invite-signup'>
      <h2 id='invite-signup'>New here? Create your account</h2>
      <ErrorMessage message={action.error} problems={action.problems} marked={allShown(action.problems, FIELDS)} />
      <label>Name<input name='name' required maxLength={100} autocomplete='name' {...invalid('name')} /></label>
      <FieldError id='invite-signup-name-error' message={byField.name} />
      <label>Email<input class={styles.fixed} name='email' type='email' value={invitation.email} readOnly {...invalid('email')} /></label>
      <FieldError id='invite-signup-email-error' message={byField.email} />
      <label>
        Password (10 characters or more, not a common one)
        <input name='password' type='password' autocomplete='new-password' minLength={10} required {...invalid('password')} />
      </label>
      <FieldError id='invite-signup-password-error' message={byField.password} />
      <button type='submit' disabled={action.busy}>{action.busy ? 'Creating…' : 'Create account and join'}</button>
    </form>
  )
}

/** Someone with an account: sign in, then accept with the new session. */
function LogIn ({ token, invitation }: { token: string, invitation: InvitationPreview }) {
  const { api, signIn } = useSession()
  const action = useAction()
  async function submit (event: Event) {
    event.preventDefault()
    const form = new FormData(event.currentTarget as HTMLFormElement)
    const signedIn = await action.run(() => api.post<StoredSession>('/auth/login', { email: form.get('email'), password: form.get('password') }))
    if (signedIn === null) return
    signIn(signedIn)
    // signed in now: if accepting fails (another email), the page shows why beside the account it is signed in as
    const joined = await action.run(() => api.post<StoredSession>(`/auth/invitations/${encodeURIComponent(token)}/accept`))
    if (joined === null) return
    signIn(joined)
    openAdmin()
  }
  return (
    <form class={styles.form} onSubmit={(e) => { void submit(e) }} aria-labelledby='invite-login'>
      <h2 id='invite-login'>Have an account? Log in</h2>
      <ErrorMessage message={action.error} />
      <label>Email<input name='email' type='email' autocomplete='email' required defaultValue={invitation.email} /></label>
      <label>Password<input name='password' type='password' autocomplete='current-password' required /></label>
      <button type='submit' class='secondary' disabled={action.busy}>{action.busy ? 'Signing in…' : 'Log in and join'}</button>
    </form>
  )
}

/** Not signed in: create an account, or log in to an existing one; either joins the business. */
export function SignInForms ({ token, invitation }: { token: string, invitation: InvitationPreview }) {
  return (
    <div class={styles.forms}>
      <SignUp token={token} invitation={invitation} />
      <LogIn token={token} invitation={invitation} />
    </div>
  )
}
