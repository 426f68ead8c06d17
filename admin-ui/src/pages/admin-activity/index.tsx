import { useEffect, useRef } from 'preact/hooks'
import { useLocation } from 'preact-iso'
import { AdminShell } from '../../components/admin-shell/index.tsx'
import { ActivityList } from '../../components/activity-list/index.tsx'
import { Empty, ErrorMessage, Loading } from '../../components/states/index.tsx'
import { useSession } from '../../lib/use-session.tsx'
import { useResource } from '../../lib/use-resource.ts'
import { useKeysetPages } from '../../lib/use-keyset-pages.ts'
import { ACTIVITY_RESOURCES, ACTOR_LABEL, ACTOR_TYPES, RESOURCE_LABEL, type ActivityPage } from '../../lib/activity.ts'
import styles from './style.module.css'

const PAGE_SIZE = 25

/** /admin/activity: who changed what in the business, newest first, by actor and resource type; "Older" pages by keyset. */
export default function AdminActivity () {
  const { api } = useSession()
  const { query, route } = useLocation()
  const actor = (ACTOR_TYPES as readonly string[]).includes(query.actor ?? '') ? query.actor : ''
  const resource = (ACTIVITY_RESOURCES as readonly string[]).includes(query.resource ?? '') ? query.resource : ''
  const pages = useKeysetPages()
  const heading = useRef<HTMLHeadingElement>(null)
  // new filters start from the newest entries
  useEffect(() => { pages.reset() }, [actor, resource])
  const params = new URLSearchParams({ limit: String(PAGE_SIZE) })
  if (actor !== '') params.set('actor', actor)
  if (resource !== '') params.set('resource', resource)
  if (pages.before !== null) params.set('before', pages.before)
  const list = useResource<ActivityPage>(`/merchant/activity?${params}`, () => api.get(`/merchant/activity?${params}`))

  function filter (next: { actor?: string, resource?: string }) {
    const search = new URLSearchParams(Object.entries({ actor, resource, ...next }).filter(([, value]) => value !== ''))
    pages.reset()
    route(search.size === 0 ? '/admin/activity' : `/admin/activity?${search}`)
  }
  function turn (to: number) {
    pages.go(to, list.data?.nextCursor ?? null)
    heading.current?.focus()
  }

  return (
    <AdminShell>
      {() => (
        <section>
          <h1 ref={heading} tabIndex={-1}>Activity</h1>
          <p class='muted'>Every change to your orders, products, reviews, pages, settings, apps and charges: who made it (a customer, you or your staff, an app, the platform) and what changed.</p>
          <form class={styles.filters} aria-label='Filter the activity' onSubmit={(e) => e.preventDefault()}>
            <label>Who
              <select value={actor} onChange={(e) => filter({ actor: e.currentTarget.value })}>
                <option value=''>Anyone</option>
                {ACTOR_TYPES.map((type) => <option key={type} value={type}>{ACTOR_LABEL[type]}</option>)}
              </select>
            </label>
            <label>What
              <select value={resource} onChange={(e) => filter({ resource: e.currentTarget.value })}>
                <option value=''>Everything</option>
                {ACTIVITY_RESOURCES.map((type) => <option key={type} value={type}>{RESOURCE_LABEL[type]}</option>)}
              </select>
            </label>
          </form>
          <ErrorMessage message={list.error} />
          {list.data === null
            ? list.loading && <Loading what='Loading the activity' />
            : list.data.data.length === 0
              ? (
                <Empty>
                  {actor !== '' || resource !== ''
                    ? <>Nothing matches these filters. <a href='/admin/activity'>Show all activity</a></>
                    : <>No activity yet. Changes appear here as they are made.</>}
                </Empty>
                )
              : (
                <div class='panel'>
                  <ActivityList entries={list.data.data} showResource label={list.current ? `Activity, page ${pages.page}` : 'Activity, loading'} busy={!list.current} />
                </div>
                )}
          {list.data !== null && (pages.page > 1 || list.data.nextCursor !== null) && (
            <nav class={styles.pager} aria-label='Activity pages'>
              <button type='button' class='secondary' disabled={pages.page === 1} onClick={() => turn(pages.page - 1)}>← Newer</button>
              <span class='muted'>Page {pages.page}</span>
              <button type='button' class='secondary' disabled={list.data.nextCursor === null} onClick={() => turn(pages.page + 1)}>Older →</button>
            </nav>
          )}
        </section>
      )}
    </AdminShell>
  )
}
