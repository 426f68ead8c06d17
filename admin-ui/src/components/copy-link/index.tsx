import { useState } from 'preact/hooks'
import styles from './style.module.css'

/** A link to hand on (an invitation): shown in full, selectable, with a Copy button that says when it worked. */
export function CopyLink ({ url, id }: { url: string, /** The link's element id: the button is described by it. */ id: string }) {
  const [copied, setCopied] = useState<'yes' | 'failed' | null>(null)
  async function copy () {
    try {
      await navigator.clipboard.writeText(url)
      setCopied('yes')
    } catch {
      // without clipboard access (plain http, a denied permission) the link stays selectable
      setCopied('failed')
    }
  }
  return (
    <div class={styles.row}>
      <code id={id} class={styles.value} data-testid='invitation-link'>{url}</code>
      <button type='button' class='secondary' aria-describedby={id} onClick={() => { void copy() }}>{copied === 'yes' ? 'Copied' : 'Copy link'}</button>
      <span class={styles.outcome} role='status'>{copied === 'failed' ? 'Select the link and copy it by hand.' : ''}</span>
    </div>
  )
}
