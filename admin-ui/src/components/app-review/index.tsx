import type { ComponentChildren } from 'preact'
import { formatDate } from '../../lib/format.ts'
import type { AppReview, AppReviewWithBusiness, ManagedAppReview } from '../../lib/types.ts'
import { Stars } from '../stars/index.tsx'
import styles from './style.module.css'

type AnyReview = AppReview | ManagedAppReview | AppReviewWithBusiness
const isManaged = (review: AnyReview): review is ManagedAppReview => 'hidden' in review
const withBusiness = (review: AnyReview): review is AppReviewWithBusiness => 'businessName' in review

/**
 * One business's review of an app: its stars, when, its words, a reviewer's hiding (for those who see
 * hidden ones) and the developer's answer, and the business in the developer's and reviewer's lists; `children` holds the actions of the screen that shows it.
 */
export function AppReviewItem ({ review, children }: { review: AnyReview, children?: ComponentChildren }) {
  const hidden = isManaged(review) ? review.hidden : null
  const business = withBusiness(review) ? review.businessName ?? 'A deleted business' : null
  const edited = review.updatedAt !== review.createdAt
  return (
    <article class={`${styles.review} ${hidden !== null ? styles.hiddenReview : ''}`} data-testid='app-review' data-review-id={review.id}>
      <header class={styles.head}>
        <Stars value={review.rating} />
        {business !== null && <strong class={styles.business} data-testid='review-business'>{business}</strong>}
        <span class='muted'>{formatDate(review.createdAt)}{edited && <> · edited {formatDate(review.updatedAt)}</>}</span>
        {hidden !== null && <span class={styles.hiddenBadge} data-testid='hidden-badge'>Hidden</span>}
      </header>
      {review.body.trim() === '' ? <p class={`muted ${styles.body}`}>No written review.</p> : <p class={styles.body}>{review.body}</p>}
      {hidden !== null && <p class={styles.hiddenReason} data-testid='hidden-reason'>Hidden by a reviewer on {formatDate(hidden.at)}: {hidden.reason}</p>}
      {review.reply !== null && (
        <div class={styles.reply} data-testid='developer-reply'>
          <p class={styles.replyHead}><strong>The developer answered</strong> <span class='muted'>{formatDate(review.reply.createdAt)}</span></p>
          <p class={styles.body}>{review.reply.body}</p>
        </div>
      )}
      {children}
    </article>
  )
}
