import { useState } from 'preact/hooks'
import { useSession } from '../../lib/use-session.tsx'
import { useAction } from '../../lib/use-action.ts'
import { useResource } from '../../lib/use-resource.ts'
import { formatDate } from '../../lib/format.ts'
import type { TestInstall, TestStatus } from '../../lib/types.ts'
import { SecretOnce } from '../../components/secret-once/index.tsx'
import { Empty, ErrorMessage, Loading } from '../../components/states/index.tsx'
import type { SectionProps } from './section.ts'
import styles from './style.module.css'

export function TestInstallSection ({ app }: SectionProps) {
  const { api } = useSession()
  const action = useAction()
  const [issued, setIssued] = useState<TestInstall | null>(null)
  const statusPath = `/developer/apps/${app.id}/test-status`
  const status = useResource<TestStatus>(statusPath, () => api.get(statusPath))

  async function install () {
    const result = await action.run(() => api.post<TestInstall>(`/developer/apps/${app.id}/test-install`))
    if (result === null) return
    setIssued(result)
    status.reload()
  }
  async function uninstall () {
    const result = await action.run(() => api.post<{ uninstalled: true }>(`/developer/apps/${app.id}/test-uninstall`))
    if (result === null) return
    setIssued(null)
    status.reload()
  }

  const s = status.data
  return (
    <>
      <h2>Test install</h2>
      <p class='muted'>Install the app on your sandbox business (sample products, orders and reviews) without a review. A new test install replaces the previous one and revokes its token.</p>
      {app.appUrl !== null && (
        <p class='muted' data-testid='test-install-through-app'>
          Test install goes to your App URL, as a merchant's Install does: your app starts OAuth, you approve on the consent screen,
          and your app exchanges the code, so the app (not this page) receives the access token and webhook secret.
        </p>
      )}
      <ErrorMessage message={status.error ?? action.error} />
      {issued !== null && <SecretOnce title='Test install credentials' secrets={[{ label: 'Access token', value: issued.accessToken }, { label: 'Webhook secret', value: issued.webhookSecret }]} />}
      {s === null
        ? status.loading && <Loading what='Loading the test install' />
        : (
          <>
            <div data-testid='test-status'>
              <div class={styles.field}><span>Status</span><strong>{s.installed ? 'Installed on your sandbox' : 'Not installed'}</strong></div>
              <div class={styles.field}><span>Sandbox business</span><code class={styles.token}>{s.businessId}</code></div>
              {s.installed && (
                <>
                  <div class={styles.field}><span>Installation</span><code class={styles.token}>{s.installationId}</code></div>
                  <div class={styles.field}><span>Installed</span><span>{formatDate(s.installedAt)}</span></div>
                  <div class={styles.field}><span>Granted scopes</span><span>{s.grantedScopes.join(', ')}</span></div>
                  {s.needsReConsent === true && <div class={styles.field}><span>Re-consent</span><span>Needed: the approved scopes grew</span></div>}
                </>
              )}
            </div>
            <div class={styles.row}>
              {s.installUrl !== null
                ? <a class='button' href={s.installUrl}>{s.installed ? 'Reinstall through your app' : 'Test install through your app'}</a>
                : <button type='button' disabled={action.busy} onClick={() => { void install() }}>{s.installed ? 'Reinstall (new token)' : 'Test install'}</button>}
              {s.installed && <button type='button' class='secondary' disabled={action.busy} onClick={() => { void uninstall() }}>Test uninstall</button>}
            </div>
            <h2>Webhooks</h2>
            {s.webhooks.length === 0
              ? <Empty>No webhooks. Set a webhook URL and events in Settings, then test-install.</Empty>
              : (
                <table class='cards' data-testid='test-webhooks'>
                  <thead><tr><th>URL</th><th>Events</th><th>Active</th></tr></thead>
                  <tbody>{s.webhooks.map((w) => <tr key={w.id}><td><code>{w.url}</code></td><td data-label='Events'>{w.events.join(', ')}</td><td data-label='Active'>{w.isActive ? 'Yes' : 'No'}</td></tr>)}</tbody>
                </table>
                )}
            <h2>Recent deliveries</h2>
            {s.recentDeliveries.length === 0
              ? <Empty>No deliveries yet.</Empty>
              : (
                <table class='cards'>
                  <thead><tr><th>When</th><th>Event</th><th>Status</th><th>Attempts</th><th>Last HTTP status</th></tr></thead>
                  <tbody>{s.recentDeliveries.map((d) => <tr key={d.id}><td class='muted'>{formatDate(d.createdAt)}</td><td data-label='Event'>{d.event}</td><td data-label='Status'>{d.status}</td><td data-label='Attempts'>{d.attempts}</td><td data-label='Last HTTP status'>{d.lastStatusCode ?? '—'}</td></tr>)}</tbody>
                </table>
                )}
          </>
          )}
    </>
  )
}
