import { formatDate } from '../../lib/format.ts'
import type { CheckEvidence, CheckOutcome, CheckResult, CheckRun, CheckRunStatus } from '../../lib/check-types.ts'
import { CodeBlock } from '../code-block/index.tsx'
import styles from './style.module.css'

const OUTCOME_LABEL: Record<CheckOutcome, string> = { FAIL: 'Failed', WARN: 'Warning', PASS: 'Passed', SKIP: 'Skipped' }
const STATUS_LABEL: Record<CheckRunStatus, string> = { RUNNING: 'Running', PASSED: 'All checks passed', WARNINGS: 'Passed with warnings', FAILED: 'Checks failed' }

export function RunStatusBadge ({ status }: { status: CheckRunStatus }) {
  return <span class={`${styles.badge} ${styles[status]}`} data-testid='check-run-status'>{STATUS_LABEL[status]}</span>
}

function Evidence ({ evidence }: { evidence: CheckEvidence }) {
  const headers = Object.entries(evidence.headers)
  return (
    <div class={styles.evidence}>
      <code class={styles.request}>{evidence.request}</code>
      <dl class={styles.kv}>
        <dt>Answer</dt><dd>{evidence.status === null ? 'none' : `HTTP ${evidence.status}`}</dd>
        <dt>Time</dt><dd>{evidence.durationMs} ms · {formatDate(evidence.at)}</dd>
      </dl>
      {headers.length > 0 && <CodeBlock label='Answer headers' text={headers.map(([name, value]) => `${name}: ${value}`).join('\n')} />}
      {evidence.body !== '' && <CodeBlock label='First 1 KB of the answer' text={evidence.body} pretty />}
    </div>
  )
}

/** One check's result: what was found, what to fix, and the exchanges behind it. */
function Result ({ result }: { result: CheckResult }) {
  return (
    <li class={`${styles.result} ${styles[result.outcome]}`} data-testid='check-result' data-outcome={result.outcome}>
      <div class={styles.line}>
        <span class={`${styles.badge} ${styles[result.outcome]}`}>{OUTCOME_LABEL[result.outcome]}</span>
        <strong class={styles.title}>{result.title}</strong>
        <code class={styles.id}>{result.id}</code>
      </div>
      <p class={styles.detail}>{result.detail}</p>
      {result.fix !== null && <p class={styles.fix} data-testid='check-fix'><strong>What to fix:</strong> {result.fix}</p>}
      {result.evidence.length > 0 && (
        <details class={styles.more}>
          <summary>Evidence ({result.evidence.length} {result.evidence.length === 1 ? 'exchange' : 'exchanges'})</summary>
          {result.evidence.map((e, i) => <Evidence key={i} evidence={e} />)}
        </details>
      )}
    </li>
  )
}

/**
 * A run's results as the API orders them: failures first, then warnings, passes and skips. `foldPasses`
 * (the reviewer's page) keeps what needs attention open and folds the passes and skips under one line.
 */
export function CheckResults ({ run, foldPasses = false }: { run: CheckRun, foldPasses?: boolean }) {
  const count = (outcome: CheckOutcome) => run.results.filter((r) => r.outcome === outcome).length
  const attention = run.results.filter((r) => r.outcome === 'FAIL' || r.outcome === 'WARN')
  const rest = run.results.filter((r) => r.outcome === 'PASS' || r.outcome === 'SKIP')
  return (
    <div data-testid='check-results'>
      <p class={styles.counts} aria-live='polite'>
        {count('FAIL')} failed · {count('WARN')} warnings · {count('PASS')} passed · {count('SKIP')} skipped
        {run.status === 'RUNNING' && ` · ${run.progress.done} of ${run.progress.total} done`}
      </p>
      {!foldPasses && run.results.length > 0 && <ul class={styles.results}>{run.results.map((r) => <Result key={r.id} result={r} />)}</ul>}
      {foldPasses && attention.length > 0 && <ul class={styles.results}>{attention.map((r) => <Result key={r.id} result={r} />)}</ul>}
      {foldPasses && rest.length > 0 && (
        <details class={styles.folded}>
          <summary>{count('PASS')} passed, {count('SKIP')} skipped</summary>
          <ul class={styles.results}>{rest.map((r) => <Result key={r.id} result={r} />)}</ul>
        </details>
      )}
    </div>
  )
}
