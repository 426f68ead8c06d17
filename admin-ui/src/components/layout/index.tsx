import type { ComponentChildren } from 'preact'
import { useLocation } from 'preact-iso'
import { useSession } from '../../lib/use-session.tsx'
import styles from './style.module.css'

export function Layout ({ children }: { children: ComponentChildren }) {
  const { session, signOut } = useSession()
  const { route } = useLocation()
  return (
    <>
      <header class={styles.header}>
        <a class={styles.brand} href='/'>App Platform</a>
        <nav class={styles.nav}>
          <a href='/'>Marketplace</a>
          {session?.user.role === 'MERCHANT' && <a href='/admin'>Admin</a>}
          {session?.user.role === 'DEVELOPER' && <a href='/portal'>Portal</a>}
          {session?.user.role === 'DEVELOPER' && <a href='/admin'>Sandbox admin</a>}
          {session?.user.role === 'REVIEWER' && <a href='/reviewer'>Review queue</a>}
        </nav>
        {session === null
          ? <div class={styles.who}><a class={styles.logout} href='/login'>Log in</a><a class={styles.logout} href='/register'>Register</a></div>
          : (
            <div class={styles.who} data-testid='who'>
              <span class={styles.email}>{session.user.name} ({session.user.email})</span>
              {/* a staff member is STAFF on the business the session acts on, whatever kind of account they have */}
              <span class={styles.role}>{session.business?.role === 'STAFF' ? 'STAFF' : session.user.role}</span>
              <button class={styles.logout} onClick={() => { void signOut().then(() => route('/login')) }}>Log out</button>
            </div>
            )}
      </header>
      <main class={styles.main}>{children}</main>
    </>
  )
}
