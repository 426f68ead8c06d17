import type { ComponentChildren } from 'preact'
import { useEffect } from 'preact/hooks'
import { useLocation } from 'preact-iso'
import { useSession } from '../../lib/use-session.tsx'
import { useResource } from '../../lib/use-resource.ts'
import type { InstalledApp } from '../../lib/admin-types.ts'
import styles from './style.module.css'

/** The app's icon, or its initial; admin pages without an iconName fall back to the app icon. */
export function AppGlyph ({ app }: { app: InstalledApp['app'] }) {
  return app.iconUrl !== null ? <img class={styles.glyph} src={app.iconUrl} alt='' /> : <span class={styles.glyph} aria-hidden='true'>{app.name.slice(0, 1)}</span>
}

interface ShellProps { children: (installs: InstalledApp[], reload: () => void) => ComponentChildren }

/** Merchant admin frame: a sidebar with every installed app's admin pages (spec: one sidebar item each). */
export function AdminShell ({ children }: ShellProps) {
  const { session, api } = useSession()
  const { url, route } = useLocation()
  const isMerchant = session?.user.role === 'MERCHANT'
  const installs = useResource<{ data: InstalledApp[] }>(isMerchant ? 'admin-installations' : null, () => api.get('/merchant/installations'))
  // the server names the storefront origin: the SPA never builds storefront URLs itself (DESIGN §14)
  const business = useResource<{ storefrontUrl: string }>(isMerchant ? 'merchant-business' : null, () => api.get('/merchant/business'))

  useEffect(() => { if (session === null) route(`/login?next=${encodeURIComponent(url)}`, true) }, [session])
  if (session === null) return null
  if (!isMerchant) return <section class='panel'><h1>Merchant admin</h1><p>This area is for merchants: sign in with a merchant account to manage your installed apps.</p></section>

  const list = installs.data?.data ?? []
  return (
    <div class={styles.shell}>
      <nav class={styles.sidebar} aria-label='Admin'>
        <a href='/admin' aria-current={url === '/admin' ? 'page' : undefined}>Installed apps</a>
        {business.data !== null && <a href={business.data.storefrontUrl} target='_blank' rel='noopener noreferrer'>View store ↗</a>}
        {list.filter((install) => install.adminPages.length > 0).map((install) => (
          <div key={install.installationId}>
            <h3>{install.app.name}</h3>
            {install.adminPages.map((page) => {
              const href = `/admin/apps/${install.installationId}/pages/${encodeURIComponent(page.pageId)}`
              return (
                <a key={page.pageId} href={href} aria-current={url === href ? 'page' : undefined}>
                  {page.iconName !== null ? <span class={styles.glyph} aria-hidden='true' title={page.iconName}>{page.iconName.slice(0, 2)}</span> : <AppGlyph app={install.app} />}
                  {page.title}
                </a>
              )
            })}
          </div>
        ))}
      </nav>
      <div class={styles.content}>
        {installs.error !== null && <div class='error' role='alert'>{installs.error}</div>}
        {installs.loading && installs.data === null ? <p class='muted'>Loading…</p> : children(list, installs.reload)}
      </div>
    </div>
  )
}
