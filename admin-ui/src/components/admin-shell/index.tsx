import type { ComponentChildren } from 'preact'
import { useEffect, useState } from 'preact/hooks'
import { useLocation } from 'preact-iso'
import { iconFor } from '../named-icon/index.tsx'
import { useSession } from '../../lib/use-session.tsx'
import { useResource } from '../../lib/use-resource.ts'
import type { MerchantBusiness } from '../../lib/commerce-types.ts'
import { isInstalled, type InstallationItem, type InstalledApp, type PendingInstallation } from '../../lib/admin-types.ts'
import { useAccess, type Access } from '../../lib/use-access.ts'
import { permissionForPath } from '../../lib/admin-access.ts'
import { NoAccess } from '../no-access/index.tsx'
import { BusinessSwitcher } from '../business-switcher/index.tsx'
import { Loading } from '../states/index.tsx'
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
  /** The signed-in user's role and permissions on this business (DESIGN §24). */
  access: Access
}

interface ShellProps { children: (installs: InstalledApp[], reload: () => void, data: ShellData) => ComponentChildren }

/**
 * Merchant admin frame: a sidebar with the admin's screens and every installed app's admin pages (spec:
 * one sidebar item each). A developer gets the same admin on their sandbox business (DESIGN §16).
 * Below 760 px the sidebar collapses behind a Menu button. A staff member sees only the screens their
 * permissions open; one opened directly says so instead of showing the API's refusal (DESIGN §24).
 */
export function AdminShell ({ children }: ShellProps) {
  const { session, api } = useSession()
  const { url, route } = useLocation()
  const [menuOpen, setMenuOpen] = useState(false)
  const role = session?.user.role
  const canAdmin = role === 'MERCHANT' || role === 'DEVELOPER'
  const access = useAccess()
  // installed apps need `apps`: a member without it never asks (the sidebar would only show a refusal)
  const seesApps = canAdmin && access.known && access.can('apps')
  const items = useResource<{ data: InstallationItem[] }>(seesApps ? `admin-installations-${access.business?.id ?? ''}` : null, () => api.get('/merchant/installations'))
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
  const allowed = (href: string) => { const permission = permissionForPath(href); return permission === null || access.can(permission) }
  const link = (href: string, label: string, exact = true) => allowed(href) && (
    <a href={href} aria-current={(exact ? path === href : path === href || path.startsWith(`${href}/`)) ? 'page' : undefined}>{label}</a>
  )
  const needed = permissionForPath(path)
  const content = () => {
    if (!access.known) return <Loading what='Loading your access' />
    if (access.business === null && role === 'MERCHANT') {
      return <section class='panel' data-testid='no-business'><h1>No business yet</h1><p>Your account does not belong to a business any more. Ask an owner to invite you again.</p></section>
    }
    if (needed !== null && !access.can(needed)) return <NoAccess permission={needed} businessName={access.business?.name ?? null} />
    if (items.loading && items.data === null) return <p class='muted' aria-busy='true'>Loading…</p>
    return children(installs, items.reload, {
      installs, pending, reload: items.reload, storefrontUrl: business.data?.storefrontUrl ?? null,
      business: business.data, reloadBusiness: business.reload, access
    })
  }
  return (
    <div class={styles.shell}>
      <div class={styles.bar}>
        {role === 'DEVELOPER' && <span class={styles.sandbox} data-testid='sandbox-badge'>Sandbox admin{business.data !== null ? ` · ${business.data.name}` : ''}</span>}
        <BusinessSwitcher currentId={access.business?.id ?? null} />
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
        {allowed('/admin/billing') && <a href='/admin/billing' aria-current={path === '/admin/billing' || path.startsWith('/admin/charges/') ? 'page' : undefined}>Billing</a>}
        {link('/admin/settings', 'Settings')}
        {link('/admin/staff', 'Staff')}
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
        {seesApps && items.error !== null && <div class='error' role='alert'>{items.error}</div>}
        {content()}
      </div>
    </div>
  )
}
