/**
 * Dates in one style across the screens, and the same as the browser's own date inputs show
 * (datetime-local: numeric, in the person's locale), so a filter's "From" reads like the list below it.
 */
const DATE_TIME: Intl.DateTimeFormatOptions = { year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit' }

export function formatDate (iso: string | null): string {
  return iso === null ? '—' : new Date(iso).toLocaleString(undefined, DATE_TIME)
}

/** Category names as shown to people ("pos" is an acronym). */
export function categoryLabel (category: string): string {
  return category === 'pos' ? 'POS' : category.slice(0, 1).toUpperCase() + category.slice(1)
}
