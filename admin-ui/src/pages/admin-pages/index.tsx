import { useState } from 'preact/hooks'
import { useLocation } from 'preact-iso'
import { AdminShell } from '../../components/admin-shell/index.tsx'
import { Empty, ErrorMessage, Loading } from '../../components/states/index.tsx'
import { useSession } from '../../lib/use-session.tsx'
import { useResource } from '../../lib/use-resource.ts'
import { useAction } from '../../lib/use-action.ts'
import { formatDate } from '../../lib/format.ts'
import { slugify, type Page } from '../../lib/pages.ts'
import type { Envelope } from '../../lib/types.ts'
import styles from './style.module.css'

function NewPage () {
  const { api } = useSession()
  const { route } = useLocation()
  const action = useAction()
  const [title, setTitle] = useState('')
  const [slug, setSlug] = useState('')
  const [slugEdited, setSlugEdited] = useState(false)
  const [published, setPublished] = useState(true)
  const onTitle = (value: string) => {
    setTitle(value)
    if (!slugEdited) setSlug(slugify(value))
  }
  const create = async (e: Event) => {
    e.preventDefault()
    const page = await action.run(() => api.post<Page>('/merchant/pages', { title, slug, isPublished: published }))
    if (page !== null) route(`/admin/pages/${encodeURIComponent(page.slug)}`)
  }
  return (
    <form class={`panel ${styles.create}`} onSubmit={(e) => { void create(e) }}>
      <h2>New page</h2>
      <label>Title<input value={title} required maxLength={200} onInput={(e) => onTitle((e.currentTarget as HTMLInputElement).value)} /></label>
      <label>Address (slug)<input value={slug} required pattern='[a-z0-9]+(-[a-z0-9]+)*' maxLength={100} onInput={(e) => { setSlugEdited(true); setSlug((e.currentTarget as HTMLInputElement).value) }} /></label>
      <label class={styles.check}><input type='checkbox' checked={published} onChange={(e) => setPublished((e.currentTarget as HTMLInputElement).checked)} /> Published</label>
      <ErrorMessage message={action.error} />
      <button type='submit' disabled={action.busy}>Create page</button>
    </form>
  )
}

/** /admin/pages: the merchant's storefront pages, each opening in the theme editor. */
export default function AdminPages () {
  const { api } = useSession()
  const pages = useResource<Envelope<Page>>('merchant-pages', () => api.get('/merchant/pages?limit=100'))
  return (
    <AdminShell>
      {() => (
        <section>
          <h1>Pages</h1>
          <p class='muted'>Your storefront pages. Open one to place app blocks on it and see it live.</p>
          <ErrorMessage message={pages.error} />
          {pages.data === null
            ? pages.loading && <Loading what='Loading pages' />
            : pages.data.data.length === 0
              ? <Empty>No pages yet: create your first page below.</Empty>
              : (
                <ul class={styles.list} data-testid='pages'>
                  {pages.data.data.map((page) => (
                    <li key={page.id} class='panel'>
                      <a href={`/admin/pages/${encodeURIComponent(page.slug)}`} class={styles.title}>{page.title}</a>
                      <span class='muted'>/{page.slug}</span>
                      <span class={page.isPublished ? styles.live : styles.draft}>{page.isPublished ? 'Published' : 'Hidden'}</span>
                      <span class='muted'>{page.blocks.length === 1 ? '1 block' : `${page.blocks.length} blocks`} · {formatDate(page.updatedAt)}</span>
                      <a class='button secondary' href={`/admin/pages/${encodeURIComponent(page.slug)}`} aria-label={`Edit ${page.title}`}>Edit</a>
                    </li>
                  ))}
                </ul>
                )}
          <NewPage />
        </section>
      )}
    </AdminShell>
  )
}
