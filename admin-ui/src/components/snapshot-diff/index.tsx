import { diffJson } from 'diff'
import styles from './style.module.css'

/** Unchanged runs longer than this fold to their first and last CONTEXT lines. */
const CONTEXT = 3

interface Line { text: string, kind: 'added' | 'removed' | 'same' | 'fold' }

/** The lines of a JSON diff (jsdiff's diffJson: keys sorted, so only real changes show), unchanged runs folded. */
export function diffLines (before: unknown, after: unknown): { lines: Line[], added: number, removed: number } {
  const lines: Line[] = []
  let added = 0
  let removed = 0
  for (const part of diffJson(before as object, after as object)) {
    const texts = part.value.replace(/\n$/, '').split('\n')
    if (part.added === true || part.removed === true) {
      const kind = part.added === true ? 'added' : 'removed'
      if (kind === 'added') added += texts.length
      else removed += texts.length
      for (const text of texts) lines.push({ text, kind })
    } else if (texts.length > CONTEXT * 2 + 1) {
      for (const text of texts.slice(0, CONTEXT)) lines.push({ text, kind: 'same' })
      lines.push({ text: `… ${texts.length - CONTEXT * 2} unchanged lines`, kind: 'fold' })
      for (const text of texts.slice(-CONTEXT)) lines.push({ text, kind: 'same' })
    } else {
      for (const text of texts) lines.push({ text, kind: 'same' })
    }
  }
  return { lines, added, removed }
}

const MARK = { added: '+', removed: '-', same: ' ', fold: ' ' } as const

/** The submitted listing and manifest against the approved ones, as a unified diff. */
export function SnapshotDiff ({ before, after }: { before: unknown, after: unknown }) {
  const { lines, added, removed } = diffLines(before, after)
  if (added === 0 && removed === 0) return <p class='muted' data-testid='diff-none'>No change to the listing or the manifest since the approval.</p>
  return (
    <>
      <p class='muted'><span class={styles.addedCount}>+{added}</span> <span class={styles.removedCount}>−{removed}</span> lines</p>
      <pre class={styles.diff} data-testid='review-diff' tabIndex={0} aria-label='Changes since the last approval'>
        {lines.map((line, i) => (
          <div key={i} class={styles[line.kind]} data-change={line.kind}>
            <span class={styles.mark} aria-hidden='true'>{MARK[line.kind]}</span>
            {line.kind === 'added' && <span class={styles.sr}>added: </span>}
            {line.kind === 'removed' && <span class={styles.sr}>removed: </span>}
            {line.text}
          </div>
        ))}
      </pre>
    </>
  )
}
