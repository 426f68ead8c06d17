/** Dates as people read them, in one style across the screens. */
export function formatDate (iso: string | null): string {
  return iso === null ? '—' : new Date(iso).toLocaleString('en-GB', { dateStyle: 'medium', timeStyle: 'short' })
}

/** Category names as shown to people ("pos" is an acronym). */
export function categoryLabel (category: string): string {
  return category === 'pos' ? 'POS' : category.slice(0, 1).toUpperCase() + category.slice(1)
}
