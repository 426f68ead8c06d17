import { useLayoutEffect, useRef, useState } from 'preact/hooks'
import { useLocation } from 'preact-iso'
import { AdminShell } from '../../components/admin-shell/index.tsx'
import { Empty, ErrorMessage, Loading, Notice } from '../../components/states/index.tsx'
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

/**
 * A page in the list: opens in the theme editor, or is deleted after a confirm step. The step is an
 * alertdialog in place: focus goes to its Cancel, Escape closes it, and focus returns to Delete.
 */
function PageItem ({ page, onDeleted }: { page: Page, onDeleted: (page: Page) => void }) {
  const { api } = useSession()
  const action = useAction()
  const [confirming, setConfirming] = useState(false)
  const cancelButton = useRef<HTMLButtonElement>(null)
  const deleteButton = useRef<HTMLButtonElement>(null)
  const opened = useRef(false)
  const href = `/admin/pages/${encodeURIComponent(page.slug)}`
  // a layout effect: focus moves with the render that opens or closes the step, not a frame later
  useLayoutEffect(() => {
    if (confirming) cancelButton.current?.focus()
    else if (opened.current) deleteButton.current?.focus()
    opened.current = confirming
  }, [confirming])
  const remove = async () => {
    const done = await action.run(async () => { await api.delete(`/merchant/pages/${encodeURIComponent(page.slug)}`); return true })
    if (done !== null) onDeleted(page)
  }
  return (
    <li class='panel'>
      <a href={href} class={styles.title}>{page.title}</a>
      <span class='muted'>/{page.slug}</span>
      <span class={page.isPublished ? styles.live : styles.draft}>{page.isPublished ? 'Published' : 'Hidden'}</span>
      <span class='muted'>{page.blocks.length === 1 ? '1 block' : `${page.blocks.length} blocks`} · {formatDate(page.updatedAt)}</span>
      <span class={styles.actions}>
        <a class='button secondary' href={href} aria-label={`Edit ${page.title}`}>Edit</a>
        <button ref={deleteButton} type='button' class='danger' aria-label={`Delete ${page.title}`} aria-expanded={confirming} onClick={() => setConfirming(true)}>Delete</button>
      </span>
      {confirming && (
        <div
          class={styles.confirm} role='alertdialog' aria-label={`Delete ${page.title}?`} aria-describedby={`delete-${page.id}`} data-testid='delete-confirm'
          onKeyDown={(e) => { if (e.key === 'Escape' && !action.busy) { e.preventDefault(); setConfirming(false) } }}
        >
          <p id={`delete-${page.id}`}>
            Delete <strong>{page.title}</strong>? Its blocks go with it and <code>/{page.slug}</code> stops working on your storefront. This cannot be undone.
          </p>
          <ErrorMessage message={action.error} />
          <div class={styles.confirmButtons}>
            <button type='button' class='danger' disabled={action.busy} onClick={() => { void remove() }}>{action.busy ? 'Deleting…' : 'Delete page'}</button>
            <button ref={cancelButton} type='button' class='secondary' disabled={action.busy} onClick={() => setConfirming(false)}>Cancel</button>
          </div>
        </div>
      )}
    </li>
  )
}

/** /admin/pages: the merchant's storefront pages, each opening in the theme editor. */
export default function AdminPages () {
  const { api } = useSession()
  const pages = useResource<Envelope<Page>>('merchant-pages', () => api.get('/merchant/pages?limit=100'))
  const [deleted, setDeleted] = useState<string | null>(null)
  // the deleted page's buttons are gone: focus goes to the heading, with the notice just below it
  const heading = useRef<HTMLHeadingElement>(null)
  return (
    <AdminShell>
      {() => (
        <section>
          <h1 ref={heading} tabIndex={-1}>Pages</h1>
          <p class='muted'>Your storefront pages. Open one to place app blocks on it and see it live.</p>
          {deleted !== null && <Notice>{deleted} deleted</Notice>}
          <ErrorMessage message={pages.error} />
          {pages.data === null
            ? pages.loading && <Loading what='Loading pages' />
            : pages.data.data.length === 0
              ? <Empty>No pages yet: create your first page below.</Empty>
              : (
                <ul class={styles.list} data-testid='pages'>
                  {pages.data.data.map((page) => (
                    <PageItem key={page.id} page={page} onDeleted={(gone) => { setDeleted(gone.title); pages.reload(); heading.current?.focus() }} />
                  ))}
                </ul>
                )}
          <NewPage />
        </section>
      )}
    </AdminShell>
  )
}
