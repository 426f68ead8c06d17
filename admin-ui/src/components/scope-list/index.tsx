import { describeScope } from '../../lib/types.ts'
import styles from './style.module.css'

/** Scopes in plain words (the code on hover); the ones a submission adds to the approved set are marked, for the reviewer's eye. */
export function ScopeList ({ scopes, added }: { scopes: string[], added: string[] }) {
  return (
    <span class={styles.scopes}>
      {scopes.map((s) => added.includes(s)
        ? <span key={s} class={`${styles.scope} ${styles.added}`} title={`${s}: added by this submission`} data-added='true' data-scope={s}>+ {describeScope(s)}</span>
        : <span key={s} class={styles.scope} title={s} data-scope={s}>{describeScope(s)}</span>)}
    </span>
  )
}
