import type { ComponentChildren } from 'preact'
import { useEffect } from 'preact/hooks'
import { useLocation } from 'preact-iso'
import { useSession, type SessionUser } from '../../lib/use-session.tsx'
import styles from './style.module.css'

type Role = SessionUser['role']

const AREA: Record<Role, { who: string, what: string }> = {
  DEVELOPER: { who: 'developers', what: 'build apps, test them on a sandbox business and submit them for review' },
  REVIEWER: { who: 'reviewers', what: 'approve or reject submitted apps' },
  MERCHANT: { who: 'merchants', what: 'manage a business and its apps' }
}

/** Renders its children for a signed-in user with `role`; sends others to log in, or explains whose area this is. */
export function RequireRole ({ role, children }: { role: Role, children: ComponentChildren }) {
  const { session } = useSession()
  const { url, route } = useLocation()
  useEffect(() => {
    if (session === null) route(`/login?next=${encodeURIComponent(url)}`, true)
  }, [session])
  if (session === null) return null
  if (session.user.role !== role) {
    return (
      <section class={`panel ${styles.panel}`} data-testid='wrong-role'>
        <h1>This area is for {AREA[role].who}</h1>
        <p>Here {AREA[role].who} {AREA[role].what}. You are signed in as <strong>{session.user.name}</strong>, a {session.user.role.toLowerCase()}.</p>
        <p><a href='/'>Browse the marketplace</a></p>
      </section>
    )
  }
  return <>{children}</>
}
