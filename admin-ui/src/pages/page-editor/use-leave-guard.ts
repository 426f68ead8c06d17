import { useLayoutEffect } from 'preact/hooks'
import { claimPopState } from '../../lib/popstate-gate.ts'

/** The parts of the Navigation API (Chromium, Safari 26.2, Firefox 147) the guard uses; TypeScript's DOM lib lacks them. */
interface NavigateEventLike extends Event { navigationType: 'push' | 'replace' | 'reload' | 'traverse', destination: { sameDocument: boolean } }
interface NavigationLike extends EventTarget { currentEntry: { key: string } | null, traverseTo: (key: string) => unknown }

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
 *
 * Chromium lets a page cancel a Back from its own button once per user activation: a second Back with
 * no click or key press between is not cancelable. Then the guard asks on the popstate instead, through
 * the popstate gate that runs before the router, and if the merchant stays the router never sees it and
 * the guard traverses back to the editor's entry (that popstate is kept from the router too): the
 * editor was never unmounted.
 *
 * A layout effect: the guard holds from the render that shows "Unsaved changes", not a frame later.
 */
export function useLeaveGuard (active: boolean, question: string): void {
  useLayoutEffect(() => {
    if (!active) return
    const navigation = (window as unknown as { navigation?: NavigationLike }).navigation
    // the entry to return to after an uncancelable traversal, once one is under way; and whether the return is
    let leavingFrom: string | null = null
    let returning = false

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
      if (returning || navigate.navigationType !== 'traverse' || !navigate.destination.sameDocument) return
      if (!navigate.cancelable) {
        leavingFrom = navigation?.currentEntry?.key ?? null
        return
      }
      if (!window.confirm(question)) navigate.preventDefault()
    }
    // true: the router must not see this popstate
    const onPopState = (): boolean => {
      if (returning) {
        returning = false
        return true
      }
      if (leavingFrom === null) return false
      const from = leavingFrom
      leavingFrom = null
      if (window.confirm(question)) return false
      returning = true
      navigation?.traverseTo(from)
      return true
    }

    window.addEventListener('beforeunload', onBeforeUnload)
    document.addEventListener('click', onClick, true)
    navigation?.addEventListener('navigate', onNavigate)
    const releasePopState = claimPopState(onPopState)
    return () => {
      window.removeEventListener('beforeunload', onBeforeUnload)
      document.removeEventListener('click', onClick, true)
      navigation?.removeEventListener('navigate', onNavigate)
      releasePopState()
    }
  }, [active, question])
}
