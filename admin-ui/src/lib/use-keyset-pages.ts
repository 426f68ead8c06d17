import { useState } from 'preact/hooks'

/**
 * Keyset paging over a console log: the `before` cursor of each page visited, so Next asks for the
 * rows after the last one shown (no offset: a deep page costs what the first does) and Previous goes
 * back to a cursor already known. A change of filters starts again from the newest page.
 */
export function useKeysetPages () {
  const [cursors, setCursors] = useState<Array<string | null>>([null])
  const page = cursors.length
  return {
    page,
    before: cursors[page - 1],
    /** Moves to page `to`: the next one with the list's nextCursor, or back to one already visited. */
    go (to: number, nextCursor: string | null) {
      if (to === page + 1 && nextCursor !== null) setCursors([...cursors, nextCursor])
      else if (to >= 1 && to < page) setCursors(cursors.slice(0, to))
    },
    reset () { setCursors([null]) }
  }
}
