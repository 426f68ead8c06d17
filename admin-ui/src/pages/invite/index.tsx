import { useRoute } from 'preact-iso'
import { ErrorMessage, Loading } from '../../components/states/index.tsx'
import { useSession, type StoredSession } from '../../lib/use-session.tsx'
import { useResource } from '../../lib/use-resource.ts'
import { useAction } from '../../lib/use-action.ts'
import { ApiError } from '../../lib/api.ts'
import { formatDate } from '../../lib/format.ts'
import { permissionList, type InvitationPreview } from '../../lib/staff-types.ts'
import { SignInForms, openAdmin } from './sign-in-forms.tsx'
import styles from './style.module.css'

/** Signed in as the invited email: one button joins. */
function Join ({ token, businessName }: { token: string, businessName: string }) {
  const { api, signIn } = useSession()
  const action = useAction()
  async function join () {
    const session = await action.run(() => api.post<StoredSession>(`/auth/invitations/${encodeURIComponent(token)}/accept`))
    if (session === null) return
    signIn(session)
    openAdmin()
  }
  return (
    <>
      <ErrorMessage message={action.error} />
      <button type='button' disabled={action.busy} onClick={() => { void join() }}>{action.busy ? 'Joining…' : `Join ${businessName}`}</button>
    </>
  )
}

/** Signed in as someone else: the invitation is for another email, so they sign out first. */
function OtherAccount ({ email, invited }: { email: string, invited: string }) {
  const { signOut } = useSession()
  const action = useAction()
  return (
    <div class='notice' role='status' data-testid='other-account'>
      <p class={styles.tight}>
        You are signed in as <strong>{email}</strong>, but this invitation is for <strong>{invited}</strong>.
        Log out, then sign in or create an account with {invited}.
      </p>
      <button type='button' class='secondary' disabled={action.busy} onClick={() => { void action.run(signOut) }}>Log out</button>
    </div>
  )
}

/** /invite/:token: what the invitation offers, then join (signed in) or sign in or sign up and join (DESIGN §24). */
export default function Invite () {
  const { params } = useRoute()
  const { api, session } = useSession()
  const token = params.token
  // a used, withdrawn or expired link (410) is an answer to show, not a failure
  const preview = useResource<InvitationPreview | 'invalid'>(`invitation-${token}`, async () => {
    try {
      return await api.get<InvitationPreview>(`/auth/invitations/${encodeURIComponent(token)}`)
    } catch (e) {
      if (e instanceof ApiError && (e.status === 410 || e.status === 404)) return 'invalid'
      throw e
    }
  })

  if (preview.data === null || preview.data === 'invalid') {
    if (preview.loading) return <div class={`panel ${styles.card}`}><Loading what='Loading the invitation' /></div>
    const invalid = preview.data === 'invalid'
    return (
      <div class={`panel ${styles.card}`} data-testid='invitation-invalid'>
        <h1>{invalid ? 'This invitation link no longer works' : 'The invitation could not be loaded'}</h1>
        {invalid
          ? <p>It was already used, withdrawn by the business, or it expired (links work for 7 days). Ask the person who invited you to send a new one.</p>
          : <><ErrorMessage message={preview.error} /><button type='button' class='secondary' onClick={() => preview.reload()}>Try again</button></>}
        <p class='muted'>{session === null ? <a href='/login'>Log in</a> : <a href='/admin'>Go to your admin</a>}</p>
      </div>
    )
  }

  const invitation = preview.data
  const sameEmail = session !== null && session.user.email.toLowerCase() === invitation.email.toLowerCase()
  return (
    <div class={`panel ${styles.card} ${session === null ? styles.wide : ''}`}>
      <h1>Join {invitation.businessName}</h1>
      <p>You are invited to work on <strong>{invitation.businessName}</strong> as staff.</p>
      <dl class={styles.facts} data-testid='invitation'>
        <div><dt>Invitation for</dt><dd>{invitation.email}</dd></div>
        <div><dt>Permissions</dt><dd>{permissionList(invitation.permissions)}</dd></div>
        <div><dt>Valid until</dt><dd>{formatDate(invitation.expiresAt)}</dd></div>
      </dl>
      {session === null
        ? <SignInForms token={token} invitation={invitation} />
        : sameEmail
          ? <Join token={token} businessName={invitation.businessName} />
          : <OtherAccount email={session.user.email} invited={invitation.email} />}
    </div>
  )
}
