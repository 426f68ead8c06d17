import { useState } from 'preact/hooks'
import styles from './style.module.css'

export interface Secret { label: string, value: string }

/** Secrets the API returns once: a warning, each value selectable, and a copy button. */
export function SecretOnce ({ title, secrets }: { title: string, secrets: Secret[] }) {
  return (
    <div class={styles.box} role='status' data-testid='secret-once'>
      <p class={styles.title}>{title}</p>
      <p class={styles.warning}>Copy it now: it will not be shown again.</p>
      {secrets.map((secret) => <SecretRow key={secret.label} secret={secret} />)}
    </div>
  )
}

function SecretRow ({ secret }: { secret: Secret }) {
  const [copied, setCopied] = useState<'yes' | 'failed' | null>(null)
  async function copy () {
    try {
      await navigator.clipboard.writeText(secret.value)
      setCopied('yes')
    } catch {
      // without clipboard access (plain http, denied permission) the value stays selectable
      setCopied('failed')
    }
  }
  return (
    <div class={styles.row}>
      <span class={styles.label}>{secret.label}</span>
      <code class={styles.value} data-testid='secret-value'>{secret.value}</code>
      <button type='button' class='secondary' onClick={() => { void copy() }}>{copied === 'yes' ? 'Copied' : 'Copy'}</button>
      {copied === 'failed' && <span class='muted'>Select the text and copy it by hand.</span>}
    </div>
  )
}
