import { useRef, useState } from 'preact/hooks'
import { CheckGroup } from '../../components/check-group/index.tsx'
import { CopyLink } from '../../components/copy-link/index.tsx'
import { ErrorMessage, FieldError, Notice } from '../../components/states/index.tsx'
import { useSession } from '../../lib/use-session.tsx'
import { useAction } from '../../lib/use-action.ts'
import { problemsByField, sentence } from '../../lib/field-errors.ts'
import { PERMISSION_TEXT, type Permission, type StaffInvitation } from '../../lib/staff-types.ts'
import styles from './style.module.css'

/** Refusals that belong to a field of the form, by their code (DESIGN §24). */
const EMAIL_CODES = ['already_member', 'invitation_pending']
const PERMISSION_CODES = ['permission_escalation']

export const permissionLabel = (option: string) => PERMISSION_TEXT[option as Permission]?.label ?? option

/**
 * Invite someone by email with the permissions they get. The answer's link is shown with a copy button
 * when no email went out (no SMTP_URL), since then the owner hands it on.
 */
export function InviteForm ({ grantable, onInvited }: { grantable: Permission[], onInvited: () => void }) {
  const { api } = useSession()
  const action = useAction()
  const [email, setEmail] = useState('')
  const [permissions, setPermissions] = useState<string[]>([])
  const [missing, setMissing] = useState<{ email?: string, permissions?: string }>({})
  const [sent, setSent] = useState<{ invitation: StaffInvitation, emailed: boolean } | null>(null)
  const emailInput = useRef<HTMLInputElement>(null)
  const outcome = useRef<HTMLDivElement>(null)

  const byField = problemsByField(action.problems)
  const refusal = (codes: string[]) => action.code !== null && action.error !== null && codes.includes(action.code) ? sentence(action.error) : undefined
  const emailError = missing.email ?? byField.email ?? refusal(EMAIL_CODES)
  const permissionsError = missing.permissions ?? byField.permissions ?? refusal(PERMISSION_CODES)
  const onField = emailError !== undefined || permissionsError !== undefined

  async function submit (event: Event) {
    event.preventDefault()
    const trimmed = email.trim()
    const checks = {
      email: trimmed === '' ? 'Enter the email address of the person to invite.' : undefined,
      permissions: permissions.length === 0 ? 'Choose at least one permission.' : undefined
    }
    setMissing(checks)
    action.clear()
    if (checks.email !== undefined) { emailInput.current?.focus(); return }
    if (checks.permissions !== undefined) { document.querySelector<HTMLInputElement>('[data-field="invite-permissions"] input')?.focus(); return }
    const result = await action.run(() => api.post<{ invitation: StaffInvitation, emailed?: boolean }>('/merchant/staff', { email: trimmed, permissions }))
    if (result === null) return
    setSent({ invitation: result.invitation, emailed: result.emailed === true })
    setEmail('')
    setPermissions([])
    onInvited()
    outcome.current?.focus()
  }

  return (
    <section aria-labelledby='invite-heading'>
      <h2 id='invite-heading'>Invite someone</h2>
      <div ref={outcome} tabIndex={-1} class={styles.outcome}>
        {sent !== null && (
          <Notice>
            <p class={styles.sentText}>
              {sent.emailed
                ? <>Invitation emailed to <strong>{sent.invitation.email}</strong>. The link below works too, for 7 days.</>
                : (
                  <>
                    Invitation ready for <strong>{sent.invitation.email}</strong>. No email was sent: copy the link and send it to them.
                    It works once, for 7 days.
                  </>
                  )}
            </p>
            <CopyLink url={sent.invitation.link} id='new-invitation-link' />
          </Notice>
        )}
      </div>
      <form class={`panel ${styles.invite}`} onSubmit={(e) => { void submit(e) }} noValidate>
        <div class={styles.field}>
          <label>
            Email
            <input
              ref={emailInput} type='email' autocomplete='off' value={email} maxLength={254}
              aria-invalid={emailError !== undefined} aria-describedby={emailError !== undefined ? 'invite-email-error' : undefined}
              onInput={(e) => { setEmail((e.currentTarget as HTMLInputElement).value); setMissing({ ...missing, email: undefined }); action.clear() }}
            />
          </label>
          <FieldError id='invite-email-error' message={emailError} />
        </div>
        <CheckGroup
          legend='Permissions' name='invite-permissions' field='invite-permissions' options={grantable} value={permissions} labelOf={permissionLabel}
          onChange={(next) => { setPermissions(next); setMissing({ ...missing, permissions: undefined }) }} error={permissionsError}
        />
        {!onField && <ErrorMessage message={action.error} problems={action.problems} />}
        <button type='submit' disabled={action.busy}>{action.busy ? 'Inviting…' : 'Send invitation'}</button>
      </form>
    </section>
  )
}
