import { Window } from 'happy-dom'

/**
 * A browser-like global scope (happy-dom) for the admin UI's library tests. These files run in
 * processes of their own (tap's include, not the shard groups), so the globals never reach a
 * server test.
 */
export function installDom (url = 'http://admin.test/'): Window {
  const window = new Window({ url })
  const globals: Record<string, unknown> = {
    window,
    document: window.document,
    localStorage: window.localStorage,
    navigator: window.navigator,
    location: window.location,
    history: window.history,
    PopStateEvent: window.PopStateEvent,
    Event: window.Event,
    HTMLElement: window.HTMLElement,
    Node: window.Node
  }
  for (const [name, value] of Object.entries(globals)) {
    Object.defineProperty(globalThis, name, { value, configurable: true, writable: true })
  }
  return window
}
