import { useEffect, useRef, useState } from 'preact/hooks'
import type { LiveEvent } from './console-types.ts'

export type LiveState = 'connecting' | 'live' | 'reconnecting' | 'off'

/** Splits a server-sent event stream into events; returns the unfinished rest. */
export function parseEvents (buffer: string, onEvent: (type: string, data: string) => void): string {
  const blocks = buffer.split('\n\n')
  const rest = blocks.pop() ?? ''
  for (const block of blocks) {
    let type = 'message'
    const data: string[] = []
    for (const line of block.split('\n')) {
      if (line.startsWith('event: ')) type = line.slice(7)
      else if (line.startsWith('data: ')) data.push(line.slice(6))
    }
    if (data.length > 0) onEvent(type, data.join('\n'))
  }
  return rest
}

/**
 * The app's live tail (GET /developer/apps/:appId/live). The session is a Bearer token the browser
 * keeps, which EventSource cannot send, so the stream is read with fetch; it reconnects with a
 * growing delay when the server ends it (every 15 minutes, or after a network error).
 */
export function useLive (appId: string, getToken: () => string | null, onEvent: (event: LiveEvent) => void, enabled = true): LiveState {
  const [state, setState] = useState<LiveState>(enabled ? 'connecting' : 'off')
  const handler = useRef(onEvent)
  handler.current = onEvent
  useEffect(() => {
    if (!enabled) { setState('off'); return }
    const controller = new AbortController()
    let attempt = 0
    let stopped = false
    async function connect (): Promise<void> {
      // eslint-disable-next-line no-unmodified-loop-condition -- the effect's cleanup sets it while this loop awaits
      while (!stopped) {
        try {
          const token = getToken()
          const response = await fetch(`/developer/apps/${encodeURIComponent(appId)}/live`, {
            headers: { accept: 'text/event-stream', ...(token !== null ? { authorization: `Bearer ${token}` } : {}) },
            signal: controller.signal
          })
          if (response.status === 401 || response.status === 404 || response.status === 403) { setState('off'); return }
          if (!response.ok || response.body === null) throw new Error(`live tail: ${response.status}`)
          const reader = response.body.pipeThrough(new TextDecoderStream()).getReader()
          let buffer = ''
          for (;;) {
            const { value, done } = await reader.read()
            if (done) break
            buffer = parseEvents(buffer + value, (type, data) => {
              if (type === 'ready') { attempt = 0; setState('live'); return }
              if (type === 'delivery' || type === 'hookCall') handler.current(JSON.parse(data) as LiveEvent)
            })
          }
        } catch {
          if (stopped) return
        }
        if (stopped) return
        setState('reconnecting')
        await new Promise((resolve) => setTimeout(resolve, Math.min(30_000, 1000 * 2 ** attempt++)))
      }
    }
    void connect()
    return () => { stopped = true; controller.abort() }
  }, [appId, enabled])
  return state
}
