import styles from './style.module.css'

/** Scopes as chips; the ones a submission adds to the approved set are marked, for the reviewer's eye. */
export function ScopeList ({ scopes, added }: { scopes: string[], added: string[] }) {
  return (
    <span class={styles.scopes}>
      {scopes.map((s) => added.includes(s)
        ? <code key={s} class={`${styles.scope} ${styles.added}`} title='Added by this submission' data-added='true'>+ {s}</code>
        : <code key={s} class={styles.scope}>{s}</code>)}
    </span>
  )
}
