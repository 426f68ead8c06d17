import { useState } from 'preact/hooks'
import { ErrorMessage } from '../../components/states/index.tsx'
import { useSession } from '../../lib/use-session.tsx'
import { useAction } from '../../lib/use-action.ts'
import type { Page } from '../../lib/pages.ts'
import styles from './style.module.css'

/** Title, address and published state of a page (PATCH /merchant/pages/:slug). */
export function PageDetails ({ page, onSaved }: { page: Page, onSaved: (page: Page) => void }) {
  const { api } = useSession()
  const action = useAction()
  const [title, setTitle] = useState(page.title)
  const [slug, setSlug] = useState(page.slug)
  const [published, setPublished] = useState(page.isPublished)
  const [saved, setSaved] = useState(false)
  const changed = title !== page.title || slug !== page.slug || published !== page.isPublished
  const submit = async (e: Event) => {
    e.preventDefault()
    setSaved(false)
    const patch = {
      ...(title !== page.title ? { title } : {}), ...(slug !== page.slug ? { slug } : {}), ...(published !== page.isPublished ? { isPublished: published } : {})
    }
    const result = await action.run(() => api.patch<Page>(`/merchant/pages/${encodeURIComponent(page.slug)}`, patch))
    if (result === null) return
    setSaved(true)
    onSaved(result)
  }
  return (
    <details class='panel' open={false}>
      <summary class={styles.summary}>Page details <span class='muted'>/{page.slug} · {page.isPublished ? 'published' : 'hidden'}</span></summary>
      <form onSubmit={(e) => { void submit(e) }}>
        <label>Title<input value={title} required maxLength={200} onInput={(e) => setTitle((e.currentTarget as HTMLInputElement).value)} /></label>
        <label>Address (slug)<input value={slug} required pattern='[a-z0-9]+(-[a-z0-9]+)*' maxLength={100} onInput={(e) => setSlug((e.currentTarget as HTMLInputElement).value)} /></label>
        <label class={styles.check}><input type='checkbox' checked={published} onChange={(e) => setPublished((e.currentTarget as HTMLInputElement).checked)} /> Published</label>
        <ErrorMessage message={action.error} />
        {saved && !changed && <p class='muted' role='status'>Details saved</p>}
        <button type='submit' class='secondary' disabled={!changed || action.busy}>Save details</button>
      </form>
    </details>
  )
}
