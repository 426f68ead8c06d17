import { useLayoutEffect } from 'preact/hooks'

/** The part of the Navigation API (Chromium, Safari 26.2, Firefox 147) the guard uses; TypeScript's DOM lib lacks it. */
interface NavigateEventLike extends Event { navigationType: 'push' | 'replace' | 'reload' | 'traverse', destination: { sameDocument: boolean } }

/**
 * While `active`, leaving asks first: closing or reloading the tab (beforeunload), following a link
 * inside the SPA (checked in the capture phase, before the router sees the click), and the browser's
 * Back and Forward buttons.
 *
 * Back and Forward between the SPA's own entries are same-document traversals: no beforeunload, and
 * preact-iso routes on the popstate that follows. The Navigation API's navigate event comes before
 * the traversal, and cancelling it keeps the page, its URL and its unsaved state; no sentinel history
 * entry is needed. The screen must not let its iframes add history entries (a frame whose src
 * changes does): Back would then step back inside the frame, with no navigate event on this page.
 * Where the browser does not let the page cancel (Chromium allows one cancelled Back from its own
 * button per user activation), Back leaves as before.
 *
 * A layout effect: the guard holds from the render that shows "Unsaved changes", not a frame later.
 */
export function useLeaveGuard (active: boolean, question: string): void {
  useLayoutEffect(() => {
    if (!active) return
    const navigation = (window as unknown as { navigation?: EventTarget }).navigation
    const onBeforeUnload = (event: BeforeUnloadEvent) => { event.preventDefault() }
    const onClick = (event: MouseEvent) => {
      const link = (event.target as Element | null)?.closest?.('a[href]') as HTMLAnchorElement | null
      if (link === null || link.target === '_blank' || event.defaultPrevented) return
      if (!window.confirm(question)) {
        event.preventDefault()
        event.stopPropagation()
      }
    }
    const onNavigate = (event: Event) => {
      const navigate = event as NavigateEventLike
      if (navigate.navigationType !== 'traverse' || !navigate.destination.sameDocument || !navigate.cancelable) return
      if (!window.confirm(question)) navigate.preventDefault()
    }
    window.addEventListener('beforeunload', onBeforeUnload)
    document.addEventListener('click', onClick, true)
    navigation?.addEventListener('navigate', onNavigate)
    return () => {
      window.removeEventListener('beforeunload', onBeforeUnload)
      document.removeEventListener('click', onClick, true)
      navigation?.removeEventListener('navigate', onNavigate)
    }
  }, [active, question])
}
