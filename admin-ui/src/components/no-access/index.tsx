import { PERMISSION_TEXT, type Permission } from '../../lib/staff-types.ts'
import styles from './style.module.css'

/** A screen the member may not use, opened directly: what is missing and whom to ask, instead of the API's refusal. */
export function NoAccess ({ permission, businessName }: { permission: Permission, businessName: string | null }) {
  const { label, opens } = PERMISSION_TEXT[permission]
  return (
    <section class={`panel ${styles.panel}`} data-testid='no-access'>
      <h1>You do not have access to {label}</h1>
      <p>
        {label} ({opens}) needs the <strong>{label}</strong> permission, which your account does not have
        {businessName !== null ? <> at <strong>{businessName}</strong></> : null}. Ask the owner to give it to you.
      </p>
      <p><a href='/admin'>Back to the admin home</a></p>
    </section>
  )
}
