import { useState } from 'preact/hooks'
import { useSession } from '../../lib/use-session.tsx'
import { useResource } from '../../lib/use-resource.ts'
import { useScrollToHash } from '../../lib/use-scroll-to-hash.ts'
import { ApiError, type ErrorCode } from '../../lib/api.ts'
import { problemsByField } from '../../lib/field-errors.ts'
import { isInstalled, type InstallationItem } from '../../lib/admin-types.ts'
import type { ManagedAppReview, MarketplaceApp } from '../../lib/types.ts'
import { AppReviewItem } from '../../components/app-review/index.tsx'
import { StarInput } from '../../components/stars/index.tsx'
import { ConfirmStep } from '../../components/confirm-step/index.tsx'
import { ErrorMessage, FieldError, Loading, Notice } from '../../components/states/index.tsx'
import styles from './style.module.css'

/** The longest review the API takes (plugins/app-reviews REVIEW_BODY_MAX). */
const BODY_MAX = 2000

/** The refusals a merchant can meet, said as what to do about them (DESIGN §24). */
const REFUSALS: Partial<Record<ErrorCode, string>> = {
  review_not_allowed: 'You can review an app after it has been installed on your business for 24 hours (a test install does not count, and neither does an install removed more than 90 days ago).',
  app_review_not_found: 'Your review was already withdrawn.'
}

/**
 * The business's own review (`review: null` while it has none), asked only when it has the app installed:
 * a business without an install has none to show.
 */
function useMine (appId: string, version: number, ask: boolean) {
  const { api } = useSession()
  const path = `/merchant/apps/${encodeURIComponent(appId)}/review`
  return useResource<{ review: ManagedAppReview | null }>(ask ? `${path}#${version}` : null, () => api.get(path))
}

/** One failed call, kept for display: the message (or our own words for a known code) and its field problems. */
interface Failure { message: string, fields: Record<string, string> }
const failureOf = (error: unknown): Failure => error instanceof ApiError
  ? { message: (error.code !== null ? REFUSALS[error.code] : undefined) ?? error.message, fields: problemsByField(error.body.errors ?? []) }
  : { message: 'Could not reach the server', fields: {} }

function ReviewForm ({ appId, mine, onSaved, onCancel }: {
  appId: string, mine: ManagedAppReview | null, onSaved: (review: ManagedAppReview) => void, onCancel?: () => void
}) {
  const { api } = useSession()
  const [rating, setRating] = useState<number | null>(mine?.rating ?? null)
  const [body, setBody] = useState(mine?.body ?? '')
  const [busy, setBusy] = useState(false)
  const [failure, setFailure] = useState<Failure | null>(null)

  async function save (e: Event) {
    e.preventDefault()
    if (rating === null) { setFailure({ message: 'Choose 1 to 5 stars.', fields: { rating: 'Choose 1 to 5 stars.' } }); return }
    setBusy(true)
    setFailure(null)
    try {
      onSaved(await api.put<ManagedAppReview>(`/merchant/apps/${encodeURIComponent(appId)}/review`, { rating, body }))
    } catch (error) {
      setFailure(failureOf(error))
    } finally {
      setBusy(false)
    }
  }

  // the API's words for a too long text are a schema's ("must NOT have more than 2000 characters"): said plainly here
  const fields: Record<string, string> = { ...failure?.fields }
  if (fields.body !== undefined && body.length > BODY_MAX) fields.body = `At most ${BODY_MAX} characters: shorten it by ${body.length - BODY_MAX}.`
  const marked = Object.keys(fields).length > 0
  return (
    <form class={styles.reviewForm} onSubmit={(e) => { void save(e) }} aria-label={mine === null ? 'Rate this app' : 'Edit your review'} noValidate>
      <StarInput name='my-rating' value={rating} onChange={(value) => { setRating(value); if (fields.rating !== undefined) setFailure(null) }} describedBy={fields.rating !== undefined ? 'my-rating-error' : undefined} invalid={fields.rating !== undefined} />
      <FieldError id='my-rating-error' message={fields.rating} />
      <label>
        Your review (optional)
        <textarea
          rows={4} value={body} aria-describedby={`my-review-count${fields.body !== undefined ? ' my-review-error' : ''}`} aria-invalid={fields.body !== undefined ? 'true' : undefined}
          onInput={(e) => setBody((e.currentTarget as HTMLTextAreaElement).value)}
        />
        <span id='my-review-count' class={`${styles.counter} ${body.length > BODY_MAX ? styles.over : ''}`}>{body.length} / {BODY_MAX} characters</span>
        <FieldError id='my-review-error' message={fields.body} />
      </label>
      {failure !== null && (marked ? <ErrorMessage message={failure.message} problems={Object.values(fields).map((message) => ({ path: '', message }))} marked /> : <ErrorMessage message={failure.message} />)}
      <div class={styles.formButtons}>
        <button type='submit' disabled={busy}>{busy ? 'Saving…' : mine === null ? 'Post review' : 'Save changes'}</button>
        {onCancel !== undefined && <button type='button' class='secondary' disabled={busy} onClick={onCancel}>Cancel</button>}
      </div>
    </form>
  )
}

/**
 * The merchant's review of the app (DESIGN §24): rate 1 to 5 with words, edit, withdraw. Shown to a merchant
 * whose business has the app installed or has already reviewed it; the API decides whether the install is old enough.
 */
export function MyReview ({ listing, onChange }: { listing: MarketplaceApp, onChange: () => void }) {
  const { api } = useSession()
  const [version, setVersion] = useState(0)
  const installs = useResource<{ data: InstallationItem[] }>('admin-installations', () => api.get('/merchant/installations'))
  const installed = installs.data?.data.some((item) => item.appId === listing.id && isInstalled(item)) ?? false
  const mine = useMine(listing.id, version, installed)
  const [editing, setEditing] = useState(false)
  const [saved, setSaved] = useState<string | null>(null)
  const [withdrawing, setWithdrawing] = useState(false)
  const [withdrawError, setWithdrawError] = useState<string | null>(null)

  const changed = (message: string) => { setSaved(message); setEditing(false); setVersion((v) => v + 1); onChange() }
  async function withdraw () {
    setWithdrawing(true)
    setWithdrawError(null)
    try {
      await api.delete(`/merchant/apps/${encodeURIComponent(listing.id)}/review`)
      changed('Your review was withdrawn.')
    } catch (error) {
      setWithdrawError(failureOf(error).message)
    } finally {
      setWithdrawing(false)
    }
  }

  // the installed apps' Review link lands here
  useScrollToHash('my-review', !mine.loading && !installs.loading)
  const review = mine.data?.review ?? null
  let content
  if (installs.loading || (installed && mine.data === null && mine.loading)) content = <Loading what='Loading your review' />
  else if (installs.error !== null) content = <ErrorMessage message={installs.error} />
  else if (mine.error !== null) content = <ErrorMessage message={mine.error} />
  else if (!installed || review === null) {
    content = installed
      ? <ReviewForm appId={listing.id} mine={null} onSaved={() => changed('Thank you: your review is posted.')} />
      : <p class='muted' data-testid='review-needs-install'>Install this app to review it: you can rate it once it has been installed on your business for 24 hours.</p>
  } else if (editing) {
    content = <ReviewForm appId={listing.id} mine={review} onSaved={() => changed('Your review is updated.')} onCancel={() => setEditing(false)} />
  } else {
    content = (
      <>
        {review.hidden !== null && <p class='muted'>A reviewer hid your review: it is not shown in the marketplace and does not count in the rating.</p>}
        <AppReviewItem review={review}>
          <div class={styles.formButtons}>
            <button type='button' class='secondary' onClick={() => { setSaved(null); setEditing(true) }}>Edit review</button>
            <ConfirmStep label='Withdraw' confirmLabel='Withdraw review' busyLabel='Withdrawing…' dismissLabel='Keep it' title='Withdraw your review' busy={withdrawing} error={withdrawError} onConfirm={() => { void withdraw() }}>
              Your review and the developer’s answer to it are deleted, and the app’s rating no longer counts it.
            </ConfirmStep>
          </div>
        </AppReviewItem>
      </>
    )
  }
  return (
    <section id='my-review' class={`panel ${styles.mine}`} aria-labelledby='my-review-title' data-testid='my-review'>
      <h2 id='my-review-title'>Your review</h2>
      {saved !== null && <Notice>{saved}</Notice>}
      {content}
    </section>
  )
}
