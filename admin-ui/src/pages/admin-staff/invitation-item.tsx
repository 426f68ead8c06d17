import { ConfirmStep } from '../../components/confirm-step/index.tsx'
import { CopyLink } from '../../components/copy-link/index.tsx'
import { useSession } from '../../lib/use-session.tsx'
import { useAction } from '../../lib/use-action.ts'
import { formatDate } from '../../lib/format.ts'
import { permissionList, type StaffInvitation } from '../../lib/staff-types.ts'
import styles from './style.module.css'

/** An invitation not yet accepted: its link to copy, when it expires, and Withdraw (the link stops working). */
export function InvitationItem ({ invitation, onWithdrawn }: { invitation: StaffInvitation, onWithdrawn: (notice: string) => void }) {
  const { api } = useSession()
  const withdraw = useAction()
  return (
    <li class={`panel ${styles.item}`} data-testid={`invitation-${invitation.email}`}>
      <div class={styles.who}>
        <strong>{invitation.email}</strong>
        <span class={styles.email}>Expires {formatDate(invitation.expiresAt)}</span>
      </div>
      <span class={styles.role}>Invited</span>
      <p class={styles.permissions}><span class='muted'>Permissions: </span>{permissionList(invitation.permissions)}</p>
      <div class={styles.link}><CopyLink url={invitation.link} id={`invitation-link-${invitation.id}`} /></div>
      <div class={styles.actions}>
        <ConfirmStep
          label='Withdraw' confirmLabel='Withdraw invitation' busyLabel='Withdrawing…' dismissLabel='Keep it' title={`Withdraw the invitation of ${invitation.email}`}
          busy={withdraw.busy} error={withdraw.error}
          onConfirm={() => {
            void withdraw.run(async () => { await api.delete(`/merchant/staff/invitations/${encodeURIComponent(invitation.id)}`); return true }).then((done) => {
              if (done === true) onWithdrawn(`The invitation of ${invitation.email} was withdrawn`)
            })
          }}
        >
          The link stops working; you can invite {invitation.email} again later.
        </ConfirmStep>
      </div>
    </li>
  )
}
