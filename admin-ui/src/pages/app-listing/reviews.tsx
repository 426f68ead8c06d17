import { useState } from 'preact/hooks'
import { useSession } from '../../lib/use-session.tsx'
import { useResource } from '../../lib/use-resource.ts'
import type { AppReview, Envelope, MarketplaceApp } from '../../lib/types.ts'
import { AppReviewItem } from '../../components/app-review/index.tsx'
import { RatingDistribution, Stars } from '../../components/stars/index.tsx'
import { Pager } from '../../components/pager/index.tsx'
import { Empty, ErrorMessage, Loading } from '../../components/states/index.tsx'
import styles from './style.module.css'

const PAGE_SIZE = 10
const SORTS = [{ value: 'recent', label: 'Newest first' }, { value: 'rating', label: 'Highest rated first' }] as const
type Sort = typeof SORTS[number]['value']

/**
 * The listing's reviews (DESIGN §24): the rating and its distribution, then businesses' visible reviews
 * with the developer's answers, newest or highest first. `version` changes when the merchant's own review does.
 */
export function ListingReviews ({ listing, version }: { listing: MarketplaceApp, version: number }) {
  const { api, session } = useSession()
  const [sort, setSort] = useState<Sort>('recent')
  const [page, setPage] = useState(1)
  const query = new URLSearchParams({ sort, page: String(page), limit: String(PAGE_SIZE) })
  const path = `/marketplace/apps/${encodeURIComponent(listing.slug)}/reviews?${query}`
  const reviews = useResource<Envelope<AppReview>>(`${path}#${version}`, () => api.get(path))
  const { rating } = listing

  return (
    <section class={styles.reviews} aria-labelledby='listing-reviews-title' data-testid='listing-reviews'>
      <h2 id='listing-reviews-title'>Reviews</h2>
      {session?.user.role === 'REVIEWER' && <p><a href={`/reviewer/apps/${encodeURIComponent(listing.id)}#app-reviews`}>Moderate these reviews (hidden ones too)</a></p>}
      {rating.average !== null && rating.count > 0 && (
        <div class={styles.ratingBox}>
          <div class={styles.average} data-testid='listing-average'>
            <strong class={styles.averageFigure}>{rating.average.toFixed(1)}</strong>
            <span class={styles.averageWords}>
              <Stars value={rating.average} size='large' />
              <span class='muted'>{rating.count === 1 ? '1 review' : `${rating.count} reviews`}</span>
            </span>
          </div>
          <RatingDistribution rating={rating} />
        </div>
      )}
      {rating.count > 0 && (
        <div class={styles.reviewTools}>
          <label class={styles.sort}>Sort reviews
            <select value={sort} onChange={(e) => { setSort((e.currentTarget as HTMLSelectElement).value as Sort); setPage(1) }}>
              {SORTS.map((s) => <option key={s.value} value={s.value}>{s.label}</option>)}
            </select>
          </label>
        </div>
      )}
      <ErrorMessage message={reviews.error} />
      {reviews.data === null
        ? reviews.loading && <Loading what='Loading the reviews' />
        : reviews.data.data.length === 0
          ? <Empty>No reviews yet. Businesses that have used the app for a day can rate it.</Empty>
          : (
            <>
              <div aria-busy={reviews.loading} data-testid='listing-review-list'>
                {reviews.data.data.map((review) => <AppReviewItem key={review.id} review={review} />)}
              </div>
              <Pager page={reviews.data.page} limit={reviews.data.limit} total={reviews.data.total} onPage={setPage} />
            </>
            )}
    </section>
  )
}
