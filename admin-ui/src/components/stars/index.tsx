import type { AppRating } from '../../lib/types.ts'
import styles from './style.module.css'

const STARS = [1, 2, 3, 4, 5] as const

/** "4.5 out of 5": the words a screen reader says for a row of stars. */
export const ratingWords = (value: number) => `${value} out of 5 stars`

/** A row of five stars filled to `value` (halves and tenths too); read as words, the drawing is hidden. */
export function Stars ({ value, size = 'normal' }: { value: number, size?: 'normal' | 'large' }) {
  const percent = Math.max(0, Math.min(5, value)) * 20
  return (
    <span class={`${styles.stars} ${size === 'large' ? styles.large : ''}`} role='img' aria-label={ratingWords(value)}>
      <span class={styles.empty} aria-hidden='true'>★★★★★</span>
      <span class={styles.filled} aria-hidden='true' style={{ width: `${percent}%` }}>★★★★★</span>
    </span>
  )
}

/** The app's average, its stars and how many reviews it rests on; "No reviews yet" without any. */
export function RatingSummary ({ rating, size = 'normal' }: { rating: AppRating, size?: 'normal' | 'large' }) {
  if (rating.average === null || rating.count === 0) return <span class={`muted ${styles.summary}`} data-testid='rating-summary'>No reviews yet</span>
  return (
    <span class={`${styles.summary} ${size === 'large' ? styles.large : ''}`} data-testid='rating-summary'>
      <Stars value={rating.average} size={size} />
      <strong>{rating.average.toFixed(1)}</strong>
      <span class='muted'>({rating.count === 1 ? '1 review' : `${rating.count} reviews`})</span>
    </span>
  )
}

/** How many reviews gave each number of stars, 5 down to 1, as bars with their counts. */
export function RatingDistribution ({ rating }: { rating: AppRating }) {
  return (
    <table class={styles.distribution} data-testid='rating-distribution'>
      <caption class='sr-only'>Reviews per number of stars</caption>
      <tbody>
        {[...STARS].reverse().map((star) => {
          const n = rating.distribution[star]
          const share = rating.count === 0 ? 0 : Math.round((n / rating.count) * 100)
          return (
            <tr key={star}>
              <th scope='row'>{star === 1 ? '1 star' : `${star} stars`}</th>
              <td class={styles.barCell}><span class={styles.bar} aria-hidden='true'><span style={{ width: `${share}%` }} /></span></td>
              <td class={styles.count}>{n}</td>
            </tr>
          )
        })}
      </tbody>
    </table>
  )
}

/**
 * Choosing 1 to 5 stars: a native radio group (arrow keys move and choose, Tab leaves it), each radio
 * drawn as a star; the stars up to the chosen one are filled.
 */
export function StarInput ({ value, onChange, name, describedBy, invalid = false }: {
  value: number | null, onChange: (value: number) => void, name: string, describedBy?: string, invalid?: boolean
}) {
  return (
    <fieldset class={styles.input} aria-describedby={describedBy} data-testid='star-input'>
      <legend>Your rating</legend>
      <div class={styles.choices}>
        {STARS.map((star) => (
          <label key={star} class={`${styles.choice} ${value !== null && star <= value ? styles.on : ''}`}>
            <input
              type='radio' name={name} value={star} checked={value === star} aria-invalid={invalid ? 'true' : undefined}
              onChange={() => onChange(star)}
            />
            <span aria-hidden='true'>★</span>
            <span class='sr-only'>{star === 1 ? '1 star' : `${star} stars`}</span>
          </label>
        ))}
        <span class={`muted ${styles.chosen}`} aria-hidden='true'>{value === null ? 'Not rated' : `${value} of 5`}</span>
      </div>
    </fieldset>
  )
}
