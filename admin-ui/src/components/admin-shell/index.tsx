import type { ComponentChildren } from 'preact'
import { useEffect, useState } from 'preact/hooks'
import { useLocation } from 'preact-iso'
import { iconFor } from '../named-icon/index.tsx'
import { useSession } from '../../lib/use-session.tsx'
import { useResource } from '../../lib/use-resource.ts'
import type { MerchantBusiness } from '../../lib/commerce-types.ts'
import { isInstalled, type InstallationItem, type InstalledApp, type PendingInstallation } from '../../lib/admin-types.ts'
import styles from './style.module.css'

/** The app's icon, or its initial; admin pages without an iconName fall back to the app icon. */
export function AppGlyph ({ app }: { app: { name: string, iconUrl: string | null } }) {
  return app.iconUrl !== null ? <img class={styles.glyph} src={app.iconUrl} alt='' /> : <span class={styles.glyph} aria-hidden='true'>{app.name.slice(0, 1)}</span>
}

/** The icon a manifest names (blocks, admin pages), drawn in `frame`; an omitted or unknown name draws the app's icon. */
export function NamedGlyph ({ iconName, app, frame = styles.glyph }: {
  iconName: string | null, app: { name: string, iconUrl: string | null }, frame?: string
}) {
  const Icon = iconFor(iconName)
  if (Icon === null) return <AppGlyph app={app} />
  return <span class={frame} aria-hidden='true'><Icon size={15} aria-hidden='true' /></span>
}

/** Where an installed app's "Open" goes (DESIGN §15): its first admin page, else its appUrl, else nowhere. */
export function openHref (install: InstalledApp): { href: string, external: boolean } | null {
  const first = install.adminPages[0]
  if (first !== undefined) return { href: `/admin/apps/${install.installationId}/pages/${encodeURIComponent(first.pageId)}`, external: false }
  return install.app.appUrl === null ? null : { href: install.app.appUrl, external: true }
}

export interface ShellData {
  installs: InstalledApp[]
  /** Approved installs the app has not finished (PENDING) or never did (EXPIRED). */
  pending: PendingInstallation[]
  reload: () => void
  storefrontUrl: string | null
  /** The business profile (currency, name), null while it loads. */
  business: MerchantBusiness | null
  reloadBusiness: () => void
}

interface ShellProps { children: (installs: InstalledApp[], reload: () => void, data: ShellData) => ComponentChildren }

/**
 * Merchant admin frame: a sidebar with the admin's screens and every installed app's admin pages (spec:
 * one sidebar item each). A developer gets the same admin on their sandbox business (DESIGN §16).
 * Below 760 px the sidebar collapses behind a Menu button.
 */
export function AdminShell ({ children }: ShellProps) {
  const { session, api } = useSession()
  const { url, route } = useLocation()
  const [menuOpen, setMenuOpen] = useState(false)
  const role = session?.user.role
  const canAdmin = role === 'MERCHANT' || role === 'DEVELOPER'
  const items = useResource<{ data: InstallationItem[] }>(canAdmin ? 'admin-installations' : null, () => api.get('/merchant/installations'))
  // the server names the storefront origin: the SPA never builds storefront URLs itself (DESIGN §14)
  const business = useResource<MerchantBusiness>(canAdmin ? 'merchant-business' : null, () => api.get('/merchant/business'))

  useEffect(() => { if (session === null) route(`/login?next=${encodeURIComponent(url)}`, true) }, [session])
  useEffect(() => { setMenuOpen(false) }, [url])
  if (session === null) return null
  if (!canAdmin) return <section class='panel'><h1>Merchant admin</h1><p>This area is for merchants: sign in with a merchant account to manage your installed apps.</p></section>

  const all = items.data?.data ?? []
  const installs = all.filter(isInstalled)
  const pending = all.filter((item): item is PendingInstallation => !isInstalled(item))
  const path = url.split('?')[0]
  const link = (href: string, label: string, exact = true) => (
    <a href={href} aria-current={(exact ? path === href : path === href || path.startsWith(`${href}/`)) ? 'page' : undefined}>{label}</a>
  )
  return (
    <div class={styles.shell}>
      <div class={styles.bar}>
        {role === 'DEVELOPER' && <span class={styles.sandbox} data-testid='sandbox-badge'>Sandbox admin{business.data !== null ? ` · ${business.data.name}` : ''}</span>}
        <button type='button' class={`secondary ${styles.menuButton}`} aria-expanded={menuOpen} aria-controls='admin-nav' onClick={() => setMenuOpen(!menuOpen)}>
          {menuOpen ? 'Close menu' : 'Menu'}
        </button>
      </div>
      <nav id='admin-nav' class={`${styles.sidebar} ${menuOpen ? styles.open : ''}`} aria-label='Admin'>
        {link('/admin', 'Home')}
        {link('/admin/orders', 'Orders', false)}
        {link('/admin/products', 'Products', false)}
        {link('/admin/reviews', 'Reviews')}
        {link('/admin/pages', 'Pages', false)}
        {link('/admin/apps', 'Installed apps')}
        {/* a charge's approval screen is part of Billing */}
        <a href='/admin/billing' aria-current={path === '/admin/billing' || path.startsWith('/admin/charges/') ? 'page' : undefined}>Billing</a>
        {link('/admin/settings', 'Settings')}
        {link('/admin/activity', 'Activity')}
        {business.data !== null && <a href={business.data.storefrontUrl} target='_blank' rel='noopener noreferrer'>View store ↗</a>}
        {installs.filter((install) => install.adminPages.length > 0).map((install) => (
          <div key={install.installationId}>
            <h3>{install.app.name}</h3>
            {install.adminPages.map((page) => {
              const href = `/admin/apps/${install.installationId}/pages/${encodeURIComponent(page.pageId)}`
              return (
                <a key={page.pageId} href={href} aria-current={url === href ? 'page' : undefined}>
                  <NamedGlyph iconName={page.iconName} app={install.app} />
                  {page.title}
                </a>
              )
            })}
          </div>
        ))}
      </nav>
      <div class={styles.content}>
        {items.error !== null && <div class='error' role='alert'>{items.error}</div>}
        {items.loading && items.data === null
          ? <p class='muted' aria-busy='true'>Loading…</p>
          : children(installs, items.reload, {
            installs, pending, reload: items.reload, storefrontUrl: business.data?.storefrontUrl ?? null,
            business: business.data, reloadBusiness: business.reload
          })}
      </div>
    </div>
  )
}
