import styles from './style.module.css'

/** A body as people read it: JSON indented by two spaces, anything else as it came. */
export function prettyBody (text: string): string {
  const trimmed = text.trim()
  if (!trimmed.startsWith('{') && !trimmed.startsWith('[')) return text
  try {
    return JSON.stringify(JSON.parse(trimmed), null, 2)
  } catch {
    return text
  }
}

/**
 * A block of code or a captured body: it scrolls inside itself (never the page), and can be reached
 * and scrolled with the keyboard (tabindex 0, named by `label`; axe's scrollable-region-focusable).
 */
export function CodeBlock ({ label, text, pretty = false, dark = false, testId }: {
  label: string, text: string, pretty?: boolean, dark?: boolean, testId?: string
}) {
  return (
    <pre class={`${styles.code} ${dark ? styles.dark : ''}`} tabIndex={0} role='region' aria-label={label} data-testid={testId}>
      {pretty ? prettyBody(text) : text}
    </pre>
  )
}
