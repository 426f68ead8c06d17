import { useState } from 'preact/hooks'
import { useSession } from '../../lib/use-session.tsx'
import { useAction } from '../../lib/use-action.ts'
import { useResource } from '../../lib/use-resource.ts'
import { formatDate } from '../../lib/format.ts'
import type { Envelope, ReviewEvent } from '../../lib/types.ts'
import { Empty, ErrorMessage, Loading } from '../states/index.tsx'
import styles from './style.module.css'

const KIND_LABEL: Record<ReviewEvent['kind'], string> = {
  SUBMITTED: 'Submitted', APPROVED: 'Approved', REJECTED: 'Changes requested', UPDATED: 'Updated live', REPLY: 'Reply'
}
const HISTORY_LIMIT = 50

/**
 * A review's record as both sides read it: submissions, decisions with their notes, live edits and
 * the replies, newest first, with who and when; and a reply box when `replyPath` is given.
 */
export function ReviewThread ({ historyPath, replyPath, refreshKey, replyHint }: {
  historyPath: string
  /** Where a reply goes; null when replying is not possible yet (nothing decided). */
  replyPath: string | null
  /** Changes when the app changed, so a submit or a decision shows at once. */
  refreshKey: string
  replyHint: string
}) {
  const { api } = useSession()
  const path = `${historyPath}?limit=${HISTORY_LIMIT}`
  const history = useResource<Envelope<ReviewEvent>>(`${path}#${refreshKey}`, () => api.get(path))
  const action = useAction()
  const [text, setText] = useState('')

  async function send (event: Event) {
    event.preventDefault()
    if (replyPath === null || text.trim() === '') return
    const sent = await action.run(() => api.post<ReviewEvent>(replyPath, { body: text.trim() }))
    if (sent !== null) {
      setText('')
      history.reload()
    }
  }

  return (
    <div class={styles.thread} data-testid='review-thread'>
      {replyPath !== null && (
        <form class={styles.reply} onSubmit={(e) => { void send(e) }}>
          <label>
            Reply
            <textarea rows={3} maxLength={5000} value={text} onInput={(e) => setText((e.currentTarget as HTMLTextAreaElement).value)} />
          </label>
          <span class='muted'>{replyHint}</span>
          <ErrorMessage message={action.error} />
          <div><button type='submit' disabled={action.busy || text.trim() === ''}>{action.busy ? 'Sending…' : 'Send reply'}</button></div>
        </form>
      )}
      <ErrorMessage message={history.error} />
      {history.data === null
        ? history.loading && <Loading what='Loading the history' />
        : history.data.data.length === 0
          ? <Empty>No history yet: it starts with the first submission.</Empty>
          : (
            <ol class={styles.events} aria-label='Review history, newest first'>
              {history.data.data.map((e) => (
                <li key={e.id} class={`${styles.event} ${styles[e.kind]}`} data-kind={e.kind}>
                  <div class={styles.meta}>
                    <strong>{KIND_LABEL[e.kind]}</strong>
                    {e.version !== null && <span>version {e.version}</span>}
                    <span>{e.author.name} ({e.author.role === 'REVIEWER' ? 'reviewer' : 'developer'})</span>
                    <time dateTime={e.createdAt}>{formatDate(e.createdAt)}</time>
                  </div>
                  {e.changes.length > 0 && <div class='muted'>Changed: {e.changes.join(', ')}</div>}
                  {e.notes !== null && <p class={styles.notes}>{e.notes}</p>}
                </li>
              ))}
            </ol>
            )}
      {history.data !== null && history.data.total > history.data.data.length && (
        <p class='muted'>The {history.data.data.length} newest of {history.data.total} entries.</p>
      )}
    </div>
  )
}
