import { useEffect, useRef } from 'preact/hooks'

/**
 * A link to `#id` of a lazily loaded section: the browser looked for the element before it existed, so
 * scroll to it once it is `ready`, once.
 */
export function useScrollToHash (id: string, ready: boolean): void {
  const done = useRef(false)
  useEffect(() => {
    if (!ready || done.current || window.location.hash !== `#${id}`) return
    done.current = true
    document.getElementById(id)?.scrollIntoView()
  }, [id, ready])
}
