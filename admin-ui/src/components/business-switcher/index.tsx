import { useState } from 'preact/hooks'
import { useSession, type StoredSession } from '../../lib/use-session.tsx'
import { useResource } from '../../lib/use-resource.ts'
import { useAction } from '../../lib/use-action.ts'
import type { SessionBusiness } from '../../lib/staff-types.ts'
import styles from './style.module.css'

/**
 * The businesses the user belongs to, when there are several (DESIGN §24): Switch asks for a session on the
 * chosen one, keeps its token in place of the old and reloads the admin, so every screen reads the new business.
 */
export function BusinessSwitcher ({ currentId }: { currentId: string | null }) {
  const { api, session, signIn } = useSession()
  const list = useResource<{ data: SessionBusiness[] }>(session === null ? null : 'auth-businesses', () => api.get('/auth/businesses'))
  const action = useAction()
  const [chosen, setChosen] = useState<string | null>(null)
  const businesses = list.data?.data ?? []
  if (businesses.length < 2) return null
  const selected = chosen ?? currentId ?? businesses[0].id
  async function submit (event: Event) {
    event.preventDefault()
    if (selected === currentId) return
    const next = await action.run(() => api.post<StoredSession>('/auth/switch-business', { businessId: selected }))
    if (next === null) return
    signIn(next)
    window.location.assign('/admin')
  }
  return (
    <form class={styles.switcher} onSubmit={(e) => { void submit(e) }} data-testid='business-switcher'>
      <label class={styles.label}>
        <span>Business</span>
        <select value={selected} onChange={(e) => setChosen((e.currentTarget as HTMLSelectElement).value)}>
          {businesses.map((b) => <option key={b.id} value={b.id}>{b.name}{b.role === 'STAFF' ? ' (staff)' : ''}</option>)}
        </select>
      </label>
      <button type='submit' class='secondary' disabled={action.busy || selected === currentId}>{action.busy ? 'Switching…' : 'Switch'}</button>
      {action.error !== null && <div class={`error ${styles.error}`} role='alert'>{action.error}</div>}
    </form>
  )
}
