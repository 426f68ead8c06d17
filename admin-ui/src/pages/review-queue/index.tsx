import { useState } from 'preact/hooks'
import { useLocation } from 'preact-iso'
import { useSession } from '../../lib/use-session.tsx'
import { useResource } from '../../lib/use-resource.ts'
import { categoryLabel, formatDate } from '../../lib/format.ts'
import type { Envelope, ReviewedApp } from '../../lib/types.ts'
import { RequireRole } from '../../components/require-role/index.tsx'
import { AppIcon } from '../../components/app-icon/index.tsx'
import { Pager } from '../../components/pager/index.tsx'
import { Empty, ErrorMessage, Loading, Notice } from '../../components/states/index.tsx'
import { ScopeList } from '../../components/scope-list/index.tsx'
import styles from './style.module.css'

const PAGE_SIZE = 20
const DONE: Record<string, string> = { approved: 'approved and published', rejected: 'sent back to the developer with your notes' }

function ReviewQueue () {
  const { api } = useSession()
  const { query } = useLocation()
  const [page, setPage] = useState(1)
  const path = `/review/apps?status=PENDING_REVIEW&page=${page}&limit=${PAGE_SIZE}`
  const queue = useResource<Envelope<ReviewedApp>>(path, () => api.get(path))
  const done = query.done !== undefined ? DONE[query.done] : undefined
  return (
    <section>
      <h1>Review queue</h1>
      {done !== undefined && query.app !== undefined && <Notice><strong>{query.app}</strong> was {done}.</Notice>}
      <p class='muted'>Submitted apps, oldest first. Scopes an app adds to its approved set are highlighted.</p>
      <ErrorMessage message={queue.error} />
      {queue.data === null
        ? queue.loading && <Loading what='Loading the queue' />
        : queue.data.data.length === 0
          ? <Empty>Nothing to review: the queue is empty.</Empty>
          : (
            <>
              <table class='cards' data-testid='review-queue'>
                <thead><tr><th>App</th><th>Category</th><th>Scopes requested</th><th>Version</th><th>Updated</th></tr></thead>
                <tbody>
                  {queue.data.data.map((app) => (
                    <tr key={app.id}>
                      <td><a class={styles.app} href={`/reviewer/apps/${app.id}`}><AppIcon name={app.name} iconUrl={app.iconUrl} size='small' /><span><strong>{app.name}</strong><br /><span class='muted'>{app.isPublished ? 'Update of a published app' : 'New app'}</span>{app.appUrl === null && <><br /><span class={styles.flag}>No app URL: not installable</span></>}</span></a></td>
                      <td data-label='Category'>{categoryLabel(app.category)}</td>
                      <td data-label='Scopes'><ScopeList scopes={app.scopes} added={app.addedScopes} /></td>
                      <td data-label='Version'>{app.version}</td>
                      <td data-label='Updated' class='muted'>{formatDate(app.updatedAt)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
              <Pager page={queue.data.page} limit={queue.data.limit} total={queue.data.total} onPage={setPage} />
            </>
            )}
    </section>
  )
}

/** `/reviewer`: apps waiting for review. */
export default function ReviewQueuePage () {
  return <RequireRole role='REVIEWER'><ReviewQueue /></RequireRole>
}
