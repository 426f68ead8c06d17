import { useState } from 'preact/hooks'

const PREFIX = 'app-platform.draft.'

function read (key: string): string | null {
  try {
    return sessionStorage.getItem(PREFIX + key)
  } catch {
    return null
  }
}

function write (key: string, text: string | null): void {
  try {
    if (text === null) sessionStorage.removeItem(PREFIX + key)
    else sessionStorage.setItem(PREFIX + key, text)
  } catch {
    // storage full or refused (private mode): the edit stays on the screen, only a reload would lose it
  }
}

/**
 * Text that survives a reload of the tab (session storage, this tab only) until it is saved or discarded:
 * a long edit is not lost when the tab has to be reloaded (#42 item 4). `saved` is what the server holds;
 * `restored` says the text on the screen came back from an earlier visit.
 */
export function useSessionDraft (key: string, saved: string) {
  const [state, setState] = useState(() => {
    const stored = read(key)
    const kept = stored !== null && stored !== saved
    return { text: kept ? stored : saved, restored: kept }
  })

  return {
    text: state.text,
    restored: state.restored,
    edit (text: string) {
      write(key, text === saved ? null : text)
      setState((s) => ({ ...s, text }))
    },
    /** After a save, or to drop the draft: the saved text again. */
    reset (text = saved) {
      write(key, null)
      setState({ text, restored: false })
    }
  }
}
