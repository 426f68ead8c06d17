import styles from './style.module.css'

/**
 * Previous / next over an envelope's `total`; hidden when everything fits on one page. A keyset list
 * says itself whether a next page exists (`hasNext`): its total may be capped.
 */
export function Pager ({ page, limit, total, onPage, hasNext }: {
  page: number, limit: number, total: number, onPage: (page: number) => void, hasNext?: boolean
}) {
  const pages = Math.max(1, Math.ceil(total / limit))
  const last = hasNext === undefined ? page >= pages : !hasNext
  if (pages <= 1 && page <= 1 && last) return null
  return (
    <nav class={styles.pager} aria-label='Pages'>
      <button type='button' class='secondary' disabled={page <= 1} onClick={() => onPage(page - 1)}>Previous</button>
      <span class='muted'>Page {page} of {Math.max(pages, page)}{hasNext === true && page >= pages ? '+' : ''}</span>
      <button type='button' class='secondary' disabled={last} onClick={() => onPage(page + 1)}>Next</button>
    </nav>
  )
}
