/**
 * The manifest editor proper: CodeMirror 6 with JSON, the published manifest schema (completion, inline
 * errors as you type, codemirror-json-schema) and JSON syntax errors. Loaded only by the manifest tab
 * (index.tsx imports it dynamically), so no other page downloads it.
 */
import { Annotation, EditorState, type Extension } from '@codemirror/state'
import { EditorView, drawSelection, highlightActiveLine, highlightActiveLineGutter, keymap, lineNumbers } from '@codemirror/view'
import { defaultKeymap, history, historyKeymap, indentWithTab } from '@codemirror/commands'
import { bracketMatching, defaultHighlightStyle, foldGutter, indentOnInput, syntaxHighlighting } from '@codemirror/language'
import { autocompletion, closeBrackets, closeBracketsKeymap, completionKeymap, type CompletionContext, type CompletionResult } from '@codemirror/autocomplete'
import { lintGutter, linter, lintKeymap } from '@codemirror/lint'
import { json, jsonLanguage, jsonParseLinter } from '@codemirror/lang-json'
import * as jsonSchemaSupport from 'codemirror-json-schema'
import { disableErrorLogging } from 'best-effort-json-parser'
import schema from 'virtual:manifest-schema'

// the package's index.d.ts re-exports ./features/state without an extension, which this project's module
// resolution does not follow: its types are written here
const { handleRefresh, jsonCompletion, jsonSchemaLinter, stateExtensions } = jsonSchemaSupport as typeof jsonSchemaSupport & {
  stateExtensions: (schema?: Record<string, unknown>) => Extension[]
}

/**
 * The schema's completion takes hundreds of milliseconds a call on the manifest schema (it compiles the schema
 * and parses the document each time), and the lint as much: run on every quick keystroke they would make typing
 * stutter. Completion while typing waits for a pause and a keystroke cancels it; the lints wait for a longer one;
 * a document past MAX_SCHEMA_DOC gets JSON syntax checks only. (The tab's freeze under quick typing, #42 item 4,
 * was not these but the page's text echoed back into the editor: see setEditorText.)
 */
const TYPING_PAUSE_MS = 350
const LINT_DELAY_MS = 800
const MAX_SCHEMA_DOC = 64 * 1024

// the completion's forgiving parser logs every half-typed document as an error ("parsed json with extra tokens")
disableErrorLogging()

type CompletionSource = (context: CompletionContext) => CompletionResult | null | Promise<CompletionResult | null>

/** The typing pause, ended early by a keystroke (the context then counts as aborted). */
async function typingPause (context: CompletionContext): Promise<void> {
  await new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, TYPING_PAUSE_MS)
    context.addEventListener('abort', () => { clearTimeout(timer); resolve() }, { onDocChange: true })
  })
}

/** The schema completion, asked for only after a pause in typing (or at once by Ctrl+Space); a failure offers nothing. */
export function guardedCompletion (source: CompletionSource): CompletionSource {
  return async (context) => {
    if (context.state.doc.length > MAX_SCHEMA_DOC) return null
    if (!context.explicit) {
      await typingPause(context)
      if (context.aborted) return null
    }
    try {
      return await source(context)
    } catch {
      return null
    }
  }
}

const schemaLint = jsonSchemaLinter()
type Diagnostics = ReturnType<typeof schemaLint>

/** The schema lint, skipped on a document too large to check quickly; a failure marks nothing. */
function guardedSchemaLint (view: EditorView): Diagnostics {
  if (view.state.doc.length > MAX_SCHEMA_DOC) return []
  try {
    return schemaLint(view)
  } catch {
    return []
  }
}

/**
 * Marks the transaction that puts the page's text into the editor (a template, a discarded draft, a saved
 * manifest). It is not an edit, so onChange does not report it back: the page already holds that text.
 */
const fromOutside = Annotation.define<true>()

/**
 * Puts a text from outside into the editor, as one undoable change, unless it already holds it. The change is
 * not reported to onChange: before this, each outside change was reported back, re-rendered the page and could
 * write an older text back in turn, without end (#42 item 4).
 */
export function setEditorText (view: EditorView, text: string): void {
  if (view.state.doc.toString() === text) return
  view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: text }, annotations: fromOutside.of(true) })
}

export interface EditorOptions {
  doc: string
  /** The editable region's accessible name and the id of the text that explains the keys. */
  label: string
  describedBy: string
  /** The user's edits (not a text put in with setEditorText). */
  onChange: (text: string) => void
}

/** Colours from the admin's palette: the default gutter grey is below 4.5:1. */
const theme = EditorView.theme({
  '&': { fontSize: '.85rem', border: '1px solid var(--line)', borderRadius: '6px', background: '#fff', color: 'var(--text)' },
  '&.cm-focused': { outline: '2px solid var(--accent)', outlineOffset: '2px' },
  '.cm-scroller': { fontFamily: 'ui-monospace, SFMono-Regular, Menlo, monospace', lineHeight: '1.45', minHeight: '320px', maxHeight: '70vh' },
  '.cm-content': { minHeight: '320px' },
  '.cm-gutters': { background: '#f8f9fb', color: 'var(--muted)', borderRight: '1px solid var(--line)' },
  '.cm-activeLineGutter': { background: '#eef2ff', color: 'var(--text)' },
  '.cm-activeLine': { background: '#f5f7ff' },
  '.cm-tooltip': { fontSize: '.85rem', maxWidth: 'min(28rem, 90vw)' },
  '.cm-tooltip-autocomplete ul li[aria-selected]': { background: 'var(--accent)', color: '#fff' },
  '.cm-diagnostic-error': { borderLeftColor: 'var(--danger)' }
})

/**
 * The editor lives in a shadow root: CodeMirror's styles then go into a constructed stylesheet (adopted by
 * the shadow root), which the admin's CSP (style-src 'self') allows; in the document itself they would be a
 * <style> element, which it refuses. An id outside the shadow root cannot describe the editor, so the help
 * text is copied in as a hidden element.
 */
export function createManifestEditor (parent: HTMLElement, options: EditorOptions): EditorView {
  const shadow = parent.shadowRoot ?? parent.attachShadow({ mode: 'open' })
  shadow.replaceChildren()
  const help = document.createElement('p')
  help.id = 'help'
  help.hidden = true
  help.textContent = document.getElementById(options.describedBy)?.textContent ?? ''
  const mount = document.createElement('div')
  shadow.append(help, mount)
  return new EditorView({
    root: shadow,
    parent: mount,
    state: EditorState.create({
      doc: options.doc,
      extensions: [
        lineNumbers(), highlightActiveLineGutter(), foldGutter(), lintGutter(), history(), drawSelection(), indentOnInput(),
        syntaxHighlighting(defaultHighlightStyle, { fallback: true }), bracketMatching(), closeBrackets(), autocompletion(), highlightActiveLine(),
        // Tab indents; Esc then Tab (or Shift-Tab) leaves the editor: CodeMirror's escape hatch for keyboard users
        keymap.of([...closeBracketsKeymap, ...defaultKeymap, ...historyKeymap, ...completionKeymap, ...lintKeymap, indentWithTab]),
        json(),
        linter(jsonParseLinter(), { delay: LINT_DELAY_MS }),
        linter(guardedSchemaLint, { delay: LINT_DELAY_MS, needsRefresh: handleRefresh }),
        jsonLanguage.data.of({ autocomplete: guardedCompletion(jsonCompletion()) }),
        stateExtensions(schema),
        EditorView.lineWrapping,
        EditorView.contentAttributes.of({ 'aria-label': options.label, 'aria-describedby': help.id, tabindex: '0' }),
        EditorView.updateListener.of((update) => {
          if (update.transactions.some((tr) => tr.docChanged && tr.annotation(fromOutside) !== true)) options.onChange(update.state.doc.toString())
        }),
        theme
      ]
    })
  })
}
