import { useState } from 'preact/hooks'
import { useLocation } from 'preact-iso'
import { useSession } from '../../lib/use-session.tsx'
import { useResource } from '../../lib/use-resource.ts'
import { formatDate } from '../../lib/format.ts'
import type { DeveloperApp, Envelope } from '../../lib/types.ts'
import { RequireRole } from '../../components/require-role/index.tsx'
import { AppIcon } from '../../components/app-icon/index.tsx'
import { PublishedBadge, StatusBadge } from '../../components/status-badge/index.tsx'
import { Pager } from '../../components/pager/index.tsx'
import { Empty, ErrorMessage, Loading, Notice } from '../../components/states/index.tsx'
import { SandboxLinks } from '../../components/sandbox-links/index.tsx'
import { CliTokens } from '../../components/cli-tokens/index.tsx'
import styles from './style.module.css'

const PAGE_SIZE = 20

function PortalApps () {
  const { api } = useSession()
  const [page, setPage] = useState(1)
  const path = `/developer/apps?page=${page}&limit=${PAGE_SIZE}`
  const apps = useResource<Envelope<DeveloperApp>>(path, () => api.get(path))
  // the Review tab's Delete comes back here naming what it deleted
  const { query } = useLocation()
  return (
    <section>
      <div class={styles.head}>
        <h1>Your apps</h1>
        <a class='button' href='/portal/apps/new'>Create app</a>
      </div>
      {query.deleted !== undefined && <Notice>{query.deleted} was deleted.</Notice>}
      <SandboxLinks />
      <ErrorMessage message={apps.error} />
      {apps.data === null
        ? apps.loading && <Loading what='Loading your apps' />
        : apps.data.data.length === 0
          ? <Empty>You have no apps yet. <a href='/portal/apps/new'>Create your first app</a> to get a client ID and start testing on your sandbox business.</Empty>
          : (
            <>
              <table class='cards' data-testid='portal-apps'>
                <thead><tr><th>App</th><th>Status</th><th>Marketplace</th><th>Version</th><th>Updated</th></tr></thead>
                <tbody>
                  {apps.data.data.map((app) => (
                    <tr key={app.id}>
                      <td><a class={styles.app} href={`/portal/apps/${app.id}`}><AppIcon name={app.name} iconUrl={app.iconUrl} size='small' /><span><strong>{app.name}</strong><br /><span class='muted'>{app.slug}</span></span></a></td>
                      <td data-label='Status'><StatusBadge status={app.status} changesRequested={app.changesRequested} isPublished={app.isPublished} /></td>
                      <td data-label='Marketplace'><PublishedBadge published={app.isPublished} /></td>
                      <td data-label='Version'>{app.version}</td>
                      <td data-label='Updated' class='muted'>{formatDate(app.updatedAt)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
              <Pager page={apps.data.page} limit={apps.data.limit} total={apps.data.total} onPage={setPage} />
            </>
            )}
      <CliTokens />
    </section>
  )
}

/** `/portal`: the developer's apps. */
export default function PortalAppsPage () {
  return <RequireRole role='DEVELOPER'><PortalApps /></RequireRole>
}
