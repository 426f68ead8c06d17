import { useState } from 'preact/hooks'
import { useSession } from '../../lib/use-session.tsx'
import { useResource } from '../../lib/use-resource.ts'
import { useAction } from '../../lib/use-action.ts'
import { ApiError } from '../../lib/api.ts'
import type { AppReviewWithBusiness, Envelope } from '../../lib/types.ts'
import { AppReviewItem } from '../../components/app-review/index.tsx'
import { Pager } from '../../components/pager/index.tsx'
import { Empty, ErrorMessage, Loading } from '../../components/states/index.tsx'
import type { SectionProps } from './section.ts'
import styles from './console.module.css'

const PAGE_SIZE = 20
const REPLY_MAX = 2000

/** The answer form under a review without one: sent once, never edited (409 reply_exists says it was already sent). */
function ReplyForm ({ appId, review, onReplied }: { appId: string, review: AppReviewWithBusiness, onReplied: () => void }) {
  const { api } = useSession()
  const action = useAction()
  const [body, setBody] = useState('')
  const [conflict, setConflict] = useState(false)
  const id = `reply-${review.id}`
  async function send (e: Event) {
    e.preventDefault()
    setConflict(false)
    const done = await action.run(() => api.put(`/developer/apps/${encodeURIComponent(appId)}/app-reviews/${encodeURIComponent(review.id)}/reply`, { body: body.trim() }).catch((error: unknown) => {
      if (error instanceof ApiError && error.code === 'reply_exists') setConflict(true)
      throw error
    }))
    if (done !== null) onReplied()
  }
  return (
    <form class={styles.replyForm} onSubmit={(e) => { void send(e) }} aria-label='Answer this review'>
      <label>
        Your answer (once: it cannot be edited)
        <textarea id={id} rows={3} maxLength={REPLY_MAX} value={body} onInput={(e) => setBody((e.currentTarget as HTMLTextAreaElement).value)} />
      </label>
      {conflict
        ? <div class='error' role='alert'>This review already has your answer (one per review). <button type='button' class='secondary' onClick={onReplied}>Show it</button></div>
        : <ErrorMessage message={action.error} problems={action.problems} />}
      <button type='submit' disabled={action.busy || body.trim() === ''}>{action.busy ? 'Sending…' : 'Send answer'}</button>
    </form>
  )
}

/** Businesses' reviews of the app (DESIGN §24), newest first, hidden ones marked, each answered once. */
export function AppReviewsSection ({ app }: SectionProps) {
  const { api } = useSession()
  const [page, setPage] = useState(1)
  const [version, setVersion] = useState(0)
  const path = `/developer/apps/${encodeURIComponent(app.id)}/app-reviews?${new URLSearchParams({ page: String(page), limit: String(PAGE_SIZE) })}`
  const list = useResource<Envelope<AppReviewWithBusiness>>(`${path}#${version}`, () => api.get(path))
  return (
    <>
      <h2>Ratings and reviews</h2>
      <p class='muted'>What merchants say about your app in the marketplace, newest first. You can answer each review once; the answer is public. A review a reviewer hid is not public and leaves your rating.</p>
      <ErrorMessage message={list.error} />
      {list.data === null
        ? list.loading && <Loading what='Loading the reviews' />
        : list.data.data.length === 0
          ? <Empty>No reviews yet. Merchants can rate your app a day after installing it.</Empty>
          : (
            <>
              <p class='muted' data-testid='app-review-count'>{list.data.total === 1 ? '1 review' : `${list.data.total} reviews`}</p>
              <div data-testid='developer-app-reviews'>
                {list.data.data.map((review) => (
                  <AppReviewItem key={review.id} review={review}>
                    {review.reply === null && <ReplyForm appId={app.id} review={review} onReplied={() => setVersion((v) => v + 1)} />}
                  </AppReviewItem>
                ))}
              </div>
              <Pager page={list.data.page} limit={list.data.limit} total={list.data.total} onPage={setPage} />
            </>
            )}
    </>
  )
}
