import { useEffect } from 'preact/hooks'

/**
 * While `active`, leaving asks first: closing or reloading the tab (beforeunload) and following a link
 * inside the SPA (checked in the capture phase, before the router sees the click).
 */
export function useLeaveGuard (active: boolean, question: string): void {
  useEffect(() => {
    if (!active) return
    const onBeforeUnload = (event: BeforeUnloadEvent) => { event.preventDefault() }
    const onClick = (event: MouseEvent) => {
      const link = (event.target as Element | null)?.closest?.('a[href]') as HTMLAnchorElement | null
      if (link === null || link.target === '_blank' || event.defaultPrevented) return
      if (!window.confirm(question)) {
        event.preventDefault()
        event.stopPropagation()
      }
    }
    window.addEventListener('beforeunload', onBeforeUnload)
    document.addEventListener('click', onClick, true)
    return () => {
      window.removeEventListener('beforeunload', onBeforeUnload)
      document.removeEventListener('click', onClick, true)
    }
  }, [active, question])
}
