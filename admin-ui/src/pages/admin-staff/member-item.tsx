import { useState } from 'preact/hooks'
import { CheckGroup } from '../../components/check-group/index.tsx'
import { ConfirmStep } from '../../components/confirm-step/index.tsx'
import { ErrorMessage } from '../../components/states/index.tsx'
import { useSession } from '../../lib/use-session.tsx'
import { useAction } from '../../lib/use-action.ts'
import { sentence } from '../../lib/field-errors.ts'
import { permissionList, type Permission, type StaffMember } from '../../lib/staff-types.ts'
import { permissionLabel } from './invite-form.tsx'
import styles from './style.module.css'

/** Edit a member's permissions in place: the checkboxes, Save and Cancel; a refusal stays beside them. */
function EditPermissions ({ member, grantable, onDone }: {
  member: StaffMember & { memberId: string }, grantable: Permission[], onDone: (saved: boolean) => void
}) {
  const { api } = useSession()
  const action = useAction()
  const [permissions, setPermissions] = useState<string[]>(member.permissions)
  const [empty, setEmpty] = useState(false)
  // a permission the editor lacks but the member has stays listed (and kept): only the owner may take it away
  const options = [...grantable, ...member.permissions.filter((p) => !grantable.includes(p as Permission))]
  async function save (event: Event) {
    event.preventDefault()
    if (permissions.length === 0) { setEmpty(true); return }
    const result = await action.run(async () => { await api.patch(`/merchant/staff/${encodeURIComponent(member.memberId)}`, { permissions }); return true })
    if (result === true) onDone(true)
  }
  const name = `member-${member.memberId}-permissions`
  // refusals about the permissions themselves go under the checkboxes
  const onGroup = action.code === 'permission_escalation' || action.code === 'own_permissions'
  return (
    <form class={styles.edit} onSubmit={(e) => { void save(e) }}>
      <CheckGroup
        legend={`Permissions of ${member.name}`} name={name} field={name} options={options} value={permissions} labelOf={permissionLabel}
        onChange={(next) => { setPermissions(next); setEmpty(false) }}
        error={empty ? 'Choose at least one permission, or remove the member.' : onGroup && action.error !== null ? sentence(action.error) : undefined}
      />
      {!onGroup && <ErrorMessage message={action.error} problems={action.problems} />}
      <div class={styles.actions}>
        <button type='submit' disabled={action.busy}>{action.busy ? 'Saving…' : 'Save permissions'}</button>
        <button type='button' class='secondary' disabled={action.busy} onClick={() => onDone(false)}>Cancel</button>
      </div>
    </form>
  )
}

/** One person of the business: who, their role and permissions; the owner and oneself cannot be edited here. */
export function MemberItem ({ member, self, grantable, onChanged }: {
  member: StaffMember, self: boolean, grantable: Permission[], onChanged: (notice: string) => void
}) {
  const { api } = useSession()
  const remove = useAction()
  const [editing, setEditing] = useState(false)
  const memberId = member.memberId
  return (
    <li class={`panel ${styles.item}`} data-testid={`member-${member.email}`}>
      <div class={styles.who}>
        <strong>{member.name}</strong>{self && <span class='muted'> (you)</span>}
        <span class={styles.email}>{member.email}</span>
      </div>
      <span class={`${styles.role} ${member.role === 'OWNER' ? styles.owner : ''}`}>{member.role === 'OWNER' ? 'Owner' : 'Staff'}</span>
      <p class={styles.permissions}><span class='muted'>Permissions: </span>{member.role === 'OWNER' ? 'All' : permissionList(member.permissions)}</p>
      {memberId !== null && !self && !editing && (
        <div class={styles.actions}>
          <button type='button' class='secondary' aria-label={`Edit permissions of ${member.name}`} onClick={() => setEditing(true)}>Edit permissions</button>
          <ConfirmStep
            label='Remove' confirmLabel='Remove member' busyLabel='Removing…' title={`Remove ${member.name}`} busy={remove.busy} error={remove.error}
            onConfirm={() => {
              // a 204 has no body: the call answers true once it went through
              void remove.run(async () => { await api.delete(`/merchant/staff/${encodeURIComponent(memberId)}`); return true }).then((done) => {
                if (done === true) onChanged(`${member.name} was removed`)
              })
            }}
          >
            {member.name} loses access to this business at once: any session they have open stops working.
          </ConfirmStep>
        </div>
      )}
      {memberId !== null && editing && (
        <EditPermissions member={{ ...member, memberId }} grantable={grantable} onDone={(saved) => { setEditing(false); if (saved) onChanged(`Permissions of ${member.name} saved`) }} />
      )}
    </li>
  )
}
