import { useLayoutEffect, useRef, useState } from 'preact/hooks'
import { useSession } from '../../lib/use-session.tsx'
import { useResource } from '../../lib/use-resource.ts'
import { useAction } from '../../lib/use-action.ts'
import { useScrollToHash } from '../../lib/use-scroll-to-hash.ts'
import { problemsByField } from '../../lib/field-errors.ts'
import type { AppReviewWithBusiness, Envelope } from '../../lib/types.ts'
import { AppReviewItem } from '../../components/app-review/index.tsx'
import { Pager } from '../../components/pager/index.tsx'
import { Empty, ErrorMessage, FieldError, Loading } from '../../components/states/index.tsx'
import styles from './style.module.css'

const PAGE_SIZE = 20
const REASON_MAX = 500

/**
 * Hide, with the reason asked for in place: the reason is kept and shown to the business and the developer.
 * The API refuses a hiding without one (400), shown on the field.
 */
function HideAction ({ review, onHidden }: { review: AppReviewWithBusiness, onHidden: () => void }) {
  const { api } = useSession()
  const action = useAction()
  const [open, setOpen] = useState(false)
  const [reason, setReason] = useState(review.hidden?.reason ?? '')
  const field = useRef<HTMLTextAreaElement>(null)
  useLayoutEffect(() => { if (open) field.current?.focus() }, [open])
  const again = review.hidden !== null
  const fieldId = `hide-reason-${review.id}`
  const reasonProblem = problemsByField(action.problems).reason

  async function hide (e: Event) {
    e.preventDefault()
    const done = await action.run(() => api.post(`/review/app-reviews/${encodeURIComponent(review.id)}/hide`, { reason }))
    if (done !== null) { setOpen(false); onHidden() }
  }
  if (!open) {
    return <button type='button' class={`secondary ${styles.hideButton}`} onClick={() => setOpen(true)}>{again ? 'Change the reason' : 'Hide'}</button>
  }
  return (
    <form
      class={styles.hideForm} onSubmit={(e) => { void hide(e) }} aria-label={again ? 'Change why the review is hidden' : 'Hide this review'} noValidate
      onKeyDown={(e) => { if (e.key === 'Escape' && !action.busy) { e.preventDefault(); setOpen(false) } }}
    >
      <label>
        Why is it hidden? The business and the developer see this reason.
        <textarea
          ref={field} rows={2} maxLength={REASON_MAX} value={reason} aria-invalid={reasonProblem !== undefined ? 'true' : undefined}
          aria-describedby={reasonProblem !== undefined ? fieldId : undefined} onInput={(e) => setReason((e.currentTarget as HTMLTextAreaElement).value)}
        />
        <FieldError id={fieldId} message={reasonProblem === undefined ? undefined : 'Give a reason to hide the review.'} />
      </label>
      <ErrorMessage message={action.error} problems={action.problems} marked={reasonProblem !== undefined} />
      <div class={styles.buttons}>
        <button type='submit' class='danger' disabled={action.busy}>{action.busy ? 'Hiding…' : again ? 'Save reason' : 'Hide review'}</button>
        <button type='button' class='secondary' disabled={action.busy} onClick={() => { action.clear(); setOpen(false) }}>Cancel</button>
      </div>
    </form>
  )
}

/** Businesses' reviews of the app (DESIGN §24), hidden ones too, newest first: a reviewer hides an abusive one. */
export function AppReviewsPanel ({ appId }: { appId: string }) {
  const { api } = useSession()
  const [page, setPage] = useState(1)
  const [version, setVersion] = useState(0)
  const path = `/review/apps/${encodeURIComponent(appId)}/app-reviews?${new URLSearchParams({ page: String(page), limit: String(PAGE_SIZE) })}`
  const list = useResource<Envelope<AppReviewWithBusiness>>(`${path}#${version}`, () => api.get(path))
  // the listing's "Moderate these reviews" link lands here
  useScrollToHash('app-reviews', list.data !== null)
  return (
    <section id='app-reviews' class={`panel ${styles.checks}`} data-testid='review-app-reviews' aria-labelledby='review-app-reviews-title'>
      <h2 id='review-app-reviews-title'>Merchants’ reviews</h2>
      <p class='muted'>What businesses wrote about the app in the marketplace, newest first. Hide one that breaks the rules: it leaves the marketplace and the rating.</p>
      <ErrorMessage message={list.error} />
      {list.data === null
        ? list.loading && <Loading what='Loading the reviews' />
        : list.data.data.length === 0
          ? <Empty>No merchant has reviewed this app.</Empty>
          : (
            <>
              {list.data.data.map((review) => (
                <AppReviewItem key={review.id} review={review}>
                  <HideAction review={review} onHidden={() => setVersion((v) => v + 1)} />
                </AppReviewItem>
              ))}
              <Pager page={list.data.page} limit={list.data.limit} total={list.data.total} onPage={setPage} />
            </>
            )}
    </section>
  )
}
