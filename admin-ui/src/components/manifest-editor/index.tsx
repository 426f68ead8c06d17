import { useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks'
import type { EditorView } from '@codemirror/view'
import styles from './style.module.css'

interface Props {
  value: string
  onChange: (text: string) => void
  /** The editable region's accessible name, and the id of the text that explains it. */
  label: string
  describedBy: string
}

/**
 * A schema-aware JSON editor for the manifest (CodeMirror 6, loaded on first use: ./codemirror.ts is its
 * own chunk). While it loads, and if it cannot, a plain textarea does the job.
 */
export function ManifestEditor ({ value, onChange, label, describedBy }: Props) {
  const host = useRef<HTMLDivElement>(null)
  const view = useRef<EditorView | null>(null)
  const setText = useRef<((editor: EditorView, text: string) => void) | null>(null)
  const [state, setState] = useState<'loading' | 'ready' | 'failed'>('loading')
  // the latest callback and text, for the editor created once
  const latest = useRef({ value, onChange })
  latest.current = { value, onChange }

  useEffect(() => {
    let alive = true
    import('./codemirror.ts').then(({ createManifestEditor, setEditorText }) => {
      if (!alive || host.current === null) return
      setText.current = setEditorText
      view.current = createManifestEditor(host.current, { doc: latest.current.value, label, describedBy, onChange: (text) => latest.current.onChange(text) })
      setState('ready')
    }, () => { if (alive) setState('failed') })
    return () => { alive = false; view.current?.destroy(); view.current = null }
  }, [])

  // A change from outside (a discarded draft, a saved manifest): the editor takes it as one edit, and does not
  // report it back. A layout effect, run as this render is committed: a plain effect waits for the next paint,
  // and Preact runs a waiting effect at the start of the component's next render, so with quick typing it saw
  // an older `value` than the editor's text. It wrote that text back, the editor reported it, the page
  // re-rendered and ran the effect waiting with the newer text: the two swapped without end and froze the
  // tab (#42 item 4).
  useLayoutEffect(() => {
    if (view.current !== null && setText.current !== null) setText.current(view.current, value)
  }, [value, state])

  return (
    <div class={styles.editor} data-testid='manifest-editor' data-state={state}>
      {state !== 'ready' && (
        <textarea
          class={styles.fallback} value={value} spellcheck={false} aria-label={label} aria-describedby={describedBy}
          onInput={(e) => onChange((e.currentTarget as HTMLTextAreaElement).value)}
        />
      )}
      <div ref={host} hidden={state !== 'ready'} />
    </div>
  )
}
