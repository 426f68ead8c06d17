import { useRef, useState } from 'preact/hooks'
import { AdminShell } from '../../components/admin-shell/index.tsx'
import { Empty, ErrorMessage, Loading, Notice } from '../../components/states/index.tsx'
import { useSession } from '../../lib/use-session.tsx'
import { useResource } from '../../lib/use-resource.ts'
import type { Access } from '../../lib/use-access.ts'
import { PERMISSIONS, type StaffList } from '../../lib/staff-types.ts'
import { InviteForm } from './invite-form.tsx'
import { MemberItem } from './member-item.tsx'
import { InvitationItem } from './invitation-item.tsx'
import styles from './style.module.css'

function Staff ({ access }: { access: Access }) {
  const { api, session } = useSession()
  const staff = useResource<StaffList>('merchant-staff', () => api.get('/merchant/staff'))
  const [notice, setNotice] = useState<string | null>(null)
  const noticeBox = useRef<HTMLDivElement>(null)
  // a member may hand on only the permissions they have (the server refuses more: permission_escalation)
  const grantable = PERMISSIONS.filter((p) => access.can(p))
  const changed = (text: string) => {
    setNotice(text)
    staff.reload()
    noticeBox.current?.focus()
  }
  return (
    <>
      <div ref={noticeBox} tabIndex={-1}>{notice !== null && <Notice>{notice}</Notice>}</div>
      <section aria-labelledby='members-heading'>
        <h2 id='members-heading'>People</h2>
        {staff.data === null
          ? staff.loading ? <Loading what='Loading the staff' /> : <ErrorMessage message={staff.error} />
          : (
            <ul class={styles.list} data-testid='members'>
              {staff.data.members.map((member) => (
                <MemberItem key={member.userId} member={member} self={member.userId === session?.user.id} grantable={grantable} onChanged={changed} />
              ))}
            </ul>
            )}
      </section>
      <InviteForm grantable={grantable} onInvited={() => { setNotice(null); staff.reload() }} />
      <section aria-labelledby='invitations-heading'>
        <h2 id='invitations-heading'>Pending invitations</h2>
        {staff.data !== null && (staff.data.invitations.length === 0
          ? <Empty>No invitation is waiting. An accepted one moves to People; one not accepted in 7 days expires.</Empty>
          : (
            <ul class={styles.list} data-testid='invitations'>
              {staff.data.invitations.map((invitation) => <InvitationItem key={invitation.id} invitation={invitation} onWithdrawn={changed} />)}
            </ul>
            ))}
      </section>
    </>
  )
}

/** /admin/staff: who works on this business, with what permissions; invite, edit, remove (DESIGN §24). */
export default function AdminStaff () {
  return (
    <AdminShell>
      {(_installs, _reload, { access }) => (
        <section>
          <h1>Staff</h1>
          <p class='muted'>Invite people to work on {access.business?.name ?? 'this business'} with the permissions they need. Each permission opens its part of the admin; Settings also lets them manage staff.</p>
          <Staff access={access} />
        </section>
      )}
    </AdminShell>
  )
}
