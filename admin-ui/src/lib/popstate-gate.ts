/**
 * One popstate listener on window, registered before the router's: main.tsx imports this module before
 * it renders, so this listener runs first (listeners on window run in the order they were added; a
 * capture listener gets no head start there). A screen may set a gate that claims a popstate: the
 * router then never sees it (the leave guard's answer to a Back it could not cancel).
 */
type Gate = (event: PopStateEvent) => boolean

let gate: Gate | null = null

window.addEventListener('popstate', (event) => {
  if (gate !== null && gate(event)) event.stopImmediatePropagation()
})

/** Sets the gate; the function returned removes it (if it is still the one set). */
export function claimPopState (next: Gate): () => void {
  gate = next
  return () => { if (gate === next) gate = null }
}
