import { useState } from 'preact/hooks'
import { useLocation } from 'preact-iso'
import { AdminShell, AppGlyph, openHref } from '../../components/admin-shell/index.tsx'
import { useSession } from '../../lib/use-session.tsx'
import { useAction } from '../../lib/use-action.ts'
import { describeScope } from '../../lib/types.ts'
import type { InstalledApp, PendingInstallation } from '../../lib/admin-types.ts'
import { ConfirmStep } from '../../components/confirm-step/index.tsx'
import { PreviousSetupOffer } from '../../components/previous-setup/index.tsx'
import styles from './style.module.css'

function OpenLink ({ install }: { install: InstalledApp }) {
  const open = openHref(install)
  if (open === null) return null
  return open.external
    ? <a class='button' href={open.href} target='_blank' rel='noopener noreferrer'>Open ↗</a>
    : <a class='button' href={open.href}>Open</a>
}

function InstalledAppCard ({ install, onChanged }: { install: InstalledApp, onChanged: (notice: string) => void }) {
  const { api } = useSession()
  const action = useAction()
  const uninstall = async () => {
    if (await action.run(() => api.delete(`/merchant/installations/${install.installationId}`)) !== null) onChanged(`${install.app.name} was uninstalled`)
  }
  return (
    <div class={`panel ${styles.card}`} data-testid={`installed-${install.app.slug}`}>
      <AppGlyph app={install.app} />
      <div class={styles.main}>
        <p class={styles.name}>{install.app.name}{install.isTestInstall && <span class={styles.test}>test install</span>}</p>
        <ul class={styles.scopes} aria-label='What it can do'>
          {install.grantedScopes.length === 0 ? <li>Nothing yet</li> : install.grantedScopes.map((s) => <li key={s}>{describeScope(s)}</li>)}
        </ul>
      </div>
      <div class={styles.actions}>
        <OpenLink install={install} />
        <a class='button secondary' href={`/admin/apps/${install.installationId}/embeds`}>Embeds</a>
        {install.hasSettings && <a class='button secondary' href={`/admin/apps/${install.installationId}/settings`}>Settings</a>}
        {/* businesses rate the apps they really use (DESIGN §24): a test install cannot */}
        {!install.isTestInstall && <a class='button secondary' href={`/apps/${install.app.slug}#my-review`} aria-label={`Review ${install.app.name}`}>Review</a>}
        {/* the app's own confirm step (an alertdialog in place, focus managed), not the browser's window.confirm */}
        <ConfirmStep
          label='Uninstall' confirmLabel='Uninstall app' busyLabel='Uninstalling…' title={`Uninstall ${install.app.name}`}
          busy={action.busy} error={action.error} onConfirm={() => { void uninstall() }}
        >
          Uninstall <strong>{install.app.name}</strong>? Its blocks leave your pages, its embeds and hooks stop,
          and it will be asked to erase your data in 48 hours.
        </ConfirmStep>
      </div>
      {install.needsReConsent && (
        <div class={styles.consent} role='status'>
          <span><strong>{install.app.name}</strong> asks for new permissions: {install.pendingScopes.map(describeScope).join('; ')}. Until you approve, it keeps only what it had.</span>
          <a class='button' href={`/admin/apps/${install.installationId}/consent`}>Review permissions</a>
        </div>
      )}
      {install.hasPreviousSetup && <PreviousSetupOffer installationId={install.installationId} appName={install.app.name} onDone={onChanged} />}
    </div>
  )
}

/** An install the merchant approved that the app has not finished: said plainly (DESIGN §16). */
function PendingCard ({ item }: { item: PendingInstallation }) {
  const expired = item.status === 'EXPIRED'
  return (
    <div class={`panel ${styles.card} ${styles.pending}`} data-testid={`pending-${item.app.slug}`}>
      <AppGlyph app={item.app} />
      <div class={styles.main}>
        <p class={styles.name}>{item.app.name} <span class={expired ? styles.expired : styles.finishing}>{expired ? 'Install did not finish' : 'Finishing install…'}</span></p>
        <p class='muted'>
          {expired
            ? 'You approved this app, but it never completed the install. Nothing was installed; start again from its listing.'
            : 'You approved this app; it is completing the install on its side. This takes a moment.'}
        </p>
      </div>
      <div class={styles.actions}>
        {expired && <a class='button secondary' href={`/apps/${item.app.slug}`}>Go to listing</a>}
      </div>
    </div>
  )
}

/** An app that sent the merchant back by its admin_return_url (`?installed=<installationId>`) is named. */
function JustInstalled ({ installs, installationId }: { installs: InstalledApp[], installationId: string | undefined }) {
  const install = installationId === undefined ? undefined : installs.find((i) => i.installationId === installationId)
  if (install === undefined) return null
  return <p class={styles.notice} role='status' data-testid='just-installed'><strong>{install.app.name}</strong> is installed. Its blocks are in the theme editor and its embeds below.</p>
}

/** /admin/apps: the merchant's installed apps, installs being finished, re-consent prompts, settings and uninstall. */
export default function AdminApps () {
  const { query } = useLocation()
  // the re-consent screen comes back here saying what it did
  const [notice, setNotice] = useState<string | null>(query.approved !== undefined ? `${query.approved} now has the new permissions` : null)
  return (
    <AdminShell>
      {(installs, reload, { pending }) => (
        <section>
          <h1>Installed apps</h1>
          {notice !== null && <p class={styles.notice} role='status'>{notice}</p>}
          {notice === null && <JustInstalled installs={installs} installationId={query.installed} />}
          {installs.length === 0 && pending.length === 0
            ? <p class='panel'>No apps installed yet. Browse the <a href='/'>marketplace</a>.</p>
            : (
              <div class={styles.list}>
                {pending.map((item) => <PendingCard key={item.appId} item={item} />)}
                {installs.map((install) => (
                  <InstalledAppCard key={install.installationId} install={install} onChanged={(text) => { setNotice(text); reload() }} />
                ))}
              </div>
              )}
        </section>
      )}
    </AdminShell>
  )
}
