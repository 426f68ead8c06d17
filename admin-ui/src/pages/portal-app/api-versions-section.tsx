import { useEffect, useRef, useState } from 'preact/hooks'
import { useSession } from '../../lib/use-session.tsx'
import { useAction } from '../../lib/use-action.ts'
import { useResource } from '../../lib/use-resource.ts'
import { Empty, ErrorMessage, Loading, Notice } from '../../components/states/index.tsx'
import type { SectionProps } from './section.ts'
import styles from './style.module.css'

/** GET /developer/api-versions (plugins/api-versions/schemas.ts) */
interface VersionInfo {
  version: string, releasedOn: string, sunset: string | null, status: string, changes: Array<{ id: string, title: string, description: string }>
}
interface VersionList { current: string, header: string, versions: VersionInfo[] }
/** GET /developer/apps/:appId/api-versions */
interface AppVersions {
  current: string
  days: number
  pinned: Array<{ version: string, sandbox: boolean, installs: number }>
  usage: Array<{ version: string, kind: 'requests' | 'webhooks' | 'hooks', count: number, status: string, sunset: string | null }>
}

/**
 * The app's API versions: what its installs are pinned to, what its requests, webhooks and hook calls
 * used in the last 30 days (with each version's sunset), the upgrade (sandbox first, then all installs)
 * and the changelog.
 */
export function ApiVersionsSection ({ app }: SectionProps) {
  const { api } = useSession()
  const action = useAction()
  const path = `/developer/apps/${app.id}/api-versions`
  const mine = useResource<AppVersions>(path, () => api.get(path))
  const list = useResource<VersionList>('/developer/api-versions', () => api.get('/developer/api-versions'))
  const [target, setTarget] = useState<string | null>(null)
  const [done, setDone] = useState<string | null>(null)
  // moving every merchant's installation changes their webhooks and hook calls at once: asked first, with what changes
  const [confirmingAll, setConfirmingAll] = useState(false)

  const versions = list.data?.versions ?? []
  const chosen = target ?? list.data?.current ?? ''
  async function upgrade (scope: 'sandbox' | 'all') {
    const result = await action.run(() => api.post<{ moved: number }>(`${path}/upgrade`, { version: chosen, target: scope }))
    setConfirmingAll(false)
    if (result === null) return
    setDone(`${result.moved} ${scope === 'sandbox' ? 'sandbox ' : ''}installation${result.moved === 1 ? '' : 's'} now on ${chosen}`)
    mine.reload()
  }

  const byVersion = new Map<string, { requests: number, webhooks: number, hooks: number, status: string, sunset: string | null }>()
  for (const use of mine.data?.usage ?? []) {
    const row = byVersion.get(use.version) ?? { requests: 0, webhooks: 0, hooks: 0, status: use.status, sunset: use.sunset }
    row[use.kind] += use.count
    byVersion.set(use.version, row)
  }

  return (
    <>
      <h2>API versions</h2>
      <p class='muted'>
        Each installation is pinned to a dated API version; a request may name another with the <code>{list.data?.header ?? 'App-Api-Version'}</code> header.
        Webhook deliveries and hook calls are shaped for the pinned version.
      </p>
      <ErrorMessage message={mine.error ?? list.error ?? action.error} />
      {done !== null && <Notice>{done}</Notice>}
      {mine.data === null
        ? mine.loading && <Loading what='Loading the versions' />
        : (
          <>
            <h3>Pinned</h3>
            {mine.data.pinned.length === 0
              ? <Empty>No installations yet.</Empty>
              : (
                <table class='cards' data-testid='api-versions-pinned'>
                  <thead><tr><th>Version</th><th>Installs</th><th>Installations</th></tr></thead>
                  <tbody>{mine.data.pinned.map((p) => (
                    <tr key={`${p.version}-${String(p.sandbox)}`}><td>{p.version}</td><td data-label='Installs'>{p.sandbox ? 'Sandbox (test)' : 'Merchants'}</td><td data-label='Installations'>{p.installs}</td></tr>
                  ))}
                  </tbody>
                </table>
                )}
            <h3>Used in the last {mine.data.days} days</h3>
            {byVersion.size === 0
              ? <Empty>No requests, webhooks or hook calls yet.</Empty>
              : (
                <table class='cards' data-testid='api-versions-usage'>
                  <thead><tr><th>Version</th><th>Requests</th><th>Webhook attempts</th><th>Hook calls</th><th>Status</th><th>Sunset</th></tr></thead>
                  <tbody>{[...byVersion.entries()].map(([version, row]) => (
                    <tr key={version}>
                      <td>{version}</td><td data-label='Requests'>{row.requests}</td><td data-label='Webhook attempts'>{row.webhooks}</td>
                      <td data-label='Hook calls'>{row.hooks}</td><td data-label='Status'>{row.status}</td><td data-label='Sunset'>{row.sunset ?? '—'}</td>
                    </tr>
                  ))}
                  </tbody>
                </table>
                )}
          </>
          )}
      <h3>Upgrade</h3>
      <p class='muted'>Move your sandbox install first and check your app against it, then all installations. Merchants are not asked: a version changes shapes, never scopes.</p>
      <div class={styles.row}>
        <label>Version{' '}
          <select value={chosen} onChange={(event) => setTarget((event.target as HTMLSelectElement).value)} disabled={versions.length === 0}>
            {versions.filter((v) => v.status !== 'sunset').map((v) => <option key={v.version} value={v.version}>{v.version} ({v.status})</option>)}
          </select>
        </label>
        <button type='button' disabled={action.busy || chosen === ''} onClick={() => { void upgrade('sandbox') }}>Upgrade the sandbox</button>
        {/* the confirmation counts the pinned installations: not while they are (re)loading, or it would count the old ones */}
        <button type='button' class='secondary' disabled={action.busy || chosen === '' || mine.loading} aria-expanded={confirmingAll} onClick={() => setConfirmingAll(true)}>
          Upgrade all installations
        </button>
      </div>
      {confirmingAll && (
        <UpgradeAllConfirm
          chosen={chosen} versions={versions} pinned={mine.data?.pinned ?? []} busy={action.busy}
          onConfirm={() => { void upgrade('all') }} onCancel={() => setConfirmingAll(false)}
        />
      )}
      <h3>Changelog</h3>
      {list.data === null
        ? list.loading && <Loading what='Loading the changelog' />
        : (
          <div data-testid='api-versions-changelog'>
            {[...versions].reverse().map((v) => (
              <section key={v.version}>
                <h4>{v.version} <span class='muted'>released {v.releasedOn}; {v.status}{v.sunset !== null ? `, sunset ${v.sunset}` : ''}</span></h4>
                {v.changes.length === 0
                  ? <p class='muted'>The first version.</p>
                  : <ul>{v.changes.map((c) => <li key={c.id}><strong>{c.title}</strong>: {c.description}</li>)}</ul>}
              </section>
            ))}
          </div>
          )}
    </>
  )
}

/**
 * The step before moving every installation: how many move, from which versions, and each change they
 * will see (the changelog between their versions and the chosen one). Focus starts on Cancel; Escape cancels.
 */
function UpgradeAllConfirm ({ chosen, versions, pinned, busy, onConfirm, onCancel }: {
  chosen: string, versions: VersionList['versions'], pinned: AppVersions['pinned'], busy: boolean, onConfirm: () => void, onCancel: () => void
}) {
  const cancel = useRef<HTMLButtonElement>(null)
  useEffect(() => { cancel.current?.focus() }, [])
  const moving = pinned.filter((p) => p.version !== chosen)
  const count = moving.reduce((sum, p) => sum + p.installs, 0)
  const oldest = moving.map((p) => p.version).sort()[0]
  const changes = versions.filter((v) => oldest !== undefined && v.version > oldest && v.version <= chosen)
    .flatMap((v) => v.changes.map((c) => ({ ...c, version: v.version })))
  return (
    <div
      class={styles.confirm} role='alertdialog' aria-label='Confirm the upgrade of all installations' data-testid='upgrade-all-confirm'
      onKeyDown={(event) => { if (event.key === 'Escape') onCancel() }}
    >
      {count === 0
        ? <p>Every installation is on {chosen} already.</p>
        : (
          <>
            <p>
              This moves <strong data-testid='upgrade-all-count'>{count}</strong> {count === 1 ? 'installation' : 'installations'}
              {' '}({moving.map((p) => `${p.installs} on ${p.version}`).join(', ')}) to {chosen} at once: their App API answers, webhooks and
              hook calls change shape{changes.length > 0 ? ' as below' : ''}. Merchants are not asked.
            </p>
            {changes.length > 0 && <ul>{changes.map((c) => <li key={`${c.version}-${c.id}`}><strong>{c.version}: {c.title}</strong></li>)}</ul>}
          </>
          )}
      <div class={styles.row}>
        <button type='button' disabled={busy || count === 0} onClick={onConfirm}>Upgrade {count} to {chosen}</button>
        <button type='button' class='secondary' ref={cancel} onClick={onCancel}>Cancel</button>
      </div>
    </div>
  )
}
