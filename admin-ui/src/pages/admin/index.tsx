import { useState } from 'preact/hooks'
import { AdminShell, AppGlyph } from '../../components/admin-shell/index.tsx'
import { useSession } from '../../lib/use-session.tsx'
import { ApiError } from '../../lib/api.ts'
import type { InstalledApp } from '../../lib/admin-types.ts'
import styles from './style.module.css'

function InstalledAppCard ({ install, onChanged }: { install: InstalledApp, onChanged: (notice: string) => void }) {
  const { api } = useSession()
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<string | null>(null)
  const act = async (action: () => Promise<unknown>, notice: string) => {
    setBusy(true)
    setError(null)
    try {
      await action()
      onChanged(notice)
    } catch (e) {
      setError(e instanceof ApiError ? e.message : 'Could not reach the server')
    } finally {
      setBusy(false)
    }
  }
  const uninstall = () => {
    if (!window.confirm(`Uninstall ${install.app.name}? Its blocks leave your pages, its embeds and hooks stop, and it will be asked to erase your data in 48 hours.`)) return
    void act(() => api.delete(`/merchant/installations/${install.installationId}`), `${install.app.name} was uninstalled`)
  }
  return (
    <div class={`panel ${styles.card}`} data-testid={`installed-${install.app.slug}`}>
      <AppGlyph app={install.app} />
      <div>
        <p class={styles.name}>{install.app.name}</p>
        <div class={styles.scopes}>Can: {install.grantedScopes.join(', ') || 'nothing yet'}</div>
        {error !== null && <div class='error' role='alert'>{error}</div>}
      </div>
      <div class={styles.actions}>
        {install.hasSettings && <a class='button secondary' href={`/admin/apps/${install.installationId}/settings`}>Settings</a>}
        <button class='danger' disabled={busy} onClick={uninstall}>Uninstall</button>
      </div>
      {install.needsReConsent && (
        <div class={styles.consent} role='status'>
          <span><strong>{install.app.name}</strong> asks for new permissions: {install.pendingScopes.join(', ')}. Until you approve, it keeps only what it had.</span>
          <button disabled={busy} onClick={() => { void act(() => api.post(`/merchant/installations/${install.installationId}/consent`), `${install.app.name} now has the new permissions`) }}>Review &amp; approve</button>
        </div>
      )}
    </div>
  )
}

/** /admin: the merchant's installed apps, with re-consent prompts, settings and uninstall. */
export default function AdminHome () {
  const [notice, setNotice] = useState<string | null>(null)
  return (
    <AdminShell>
      {(installs, reload) => (
        <section>
          <h1>Installed apps</h1>
          {notice !== null && <p class={styles.notice} role='status'>{notice}</p>}
          {installs.length === 0
            ? <p class='panel'>No apps installed yet. Browse the <a href='/'>marketplace</a>.</p>
            : (
              <div class={styles.list}>
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
