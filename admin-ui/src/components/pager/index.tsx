import styles from './style.module.css'

/** Previous / next over an envelope's `total`; hidden when everything fits on one page. */
export function Pager ({ page, limit, total, onPage }: { page: number, limit: number, total: number, onPage: (page: number) => void }) {
  const pages = Math.max(1, Math.ceil(total / limit))
  if (pages <= 1) return null
  return (
    <nav class={styles.pager} aria-label='Pages'>
      <button type='button' class='secondary' disabled={page <= 1} onClick={() => onPage(page - 1)}>Previous</button>
      <span class='muted'>Page {page} of {pages}</span>
      <button type='button' class='secondary' disabled={page >= pages} onClick={() => onPage(page + 1)}>Next</button>
    </nav>
  )
}
