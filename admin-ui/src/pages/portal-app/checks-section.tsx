import { useEffect, useState } from 'preact/hooks'
import { useSession } from '../../lib/use-session.tsx'
import { useResource } from '../../lib/use-resource.ts'
import { useAction } from '../../lib/use-action.ts'
import { formatDate } from '../../lib/format.ts'
import type { Envelope } from '../../lib/types.ts'
import type { CheckRun, CheckRunSummary } from '../../lib/check-types.ts'
import { CheckResults, RunStatusBadge } from '../../components/check-results/index.tsx'
import { Empty, ErrorMessage, Loading } from '../../components/states/index.tsx'
import type { SectionProps } from './section.ts'
import styles from './console.module.css'

/** A running run is read again this often until it finishes. */
const POLL_MS = 1000
const HISTORY_SIZE = 20

/** One run, read again every second while it is RUNNING (live progress). */
function useRun (appId: string, runId: string | null, onFinished: () => void) {
  const { api } = useSession()
  const [tick, setTick] = useState(0)
  const path = runId === null ? null : `/developer/apps/${encodeURIComponent(appId)}/checks/${encodeURIComponent(runId)}`
  const run = useResource<CheckRun>(path === null ? null : `${path}#${tick}`, () => api.get(path as string))
  const running = run.data?.status === 'RUNNING'
  useEffect(() => {
    if (run.data === null) return
    if (!running) { onFinished(); return }
    const timer = setTimeout(() => setTick((t) => t + 1), POLL_MS)
    return () => clearTimeout(timer)
  }, [run.data, running])
  return run
}

export function ChecksSection ({ app }: SectionProps) {
  const { api } = useSession()
  const action = useAction()
  const [historyVersion, setHistoryVersion] = useState(0)
  const [selected, setSelected] = useState<string | null>(null)
  const historyPath = `/developer/apps/${encodeURIComponent(app.id)}/checks?limit=${HISTORY_SIZE}`
  const history = useResource<Envelope<CheckRunSummary>>(`${historyPath}#${historyVersion}`, () => api.get(historyPath))
  // the run shown: the one chosen, else the newest of this version
  const newest = history.data?.data.find((r) => r.version === app.version) ?? null
  const shown = selected ?? newest?.id ?? null
  const run = useRun(app.id, shown, () => { if (newest?.status === 'RUNNING') setHistoryVersion((v) => v + 1) })

  async function start () {
    const started = await action.run(() => api.post<{ checkRunId: string }>(`/developer/apps/${encodeURIComponent(app.id)}/checks`))
    if (started === null) return
    setSelected(started.checkRunId)
    setHistoryVersion((v) => v + 1)
  }
  const busy = action.busy || run.data?.status === 'RUNNING'

  return (
    <>
      <div class={styles.toolbar}>
        <h2>Checks</h2>
        <button type='button' disabled={busy} onClick={() => { void start() }} data-testid='run-checks'>{busy ? 'Running…' : 'Run checks'}</button>
      </div>
      <p class='muted'>
        The platform tests your app as a reviewer would: OAuth entry and redirect, webhook signatures, <code>webhook.test</code> and
        data erasure, each hook, framing of blocks, embeds and admin pages, script embeds, the admin-page bridge and unused scopes.
        They run against your app's installation on your sandbox (installed for the run when there is none). Submitting for review runs them too;
        a failure does not block the submission, but the reviewer sees it first.
      </p>
      <ErrorMessage message={action.error} />
      <div class={styles.checksLayout}>
        <div data-testid='check-run'>
          {shown === null
            ? history.loading ? <Loading what='Loading the checks' /> : history.error === null && <Empty>No checks have run for version {app.version} yet. Run them before you submit.</Empty>
            : run.data === null
              ? run.loading ? <Loading what='Loading the run' /> : <ErrorMessage message={run.error} />
              : (
                <>
                  <div class={styles.row}>
                    <RunStatusBadge status={run.data.status} />
                    <span class='muted'>Version {run.data.version} · started {formatDate(run.data.startedAt)}{run.data.trigger === 'submission' ? ' · by the submission' : ''}</span>
                  </div>
                  {run.data.status === 'RUNNING' && <progress class={styles.progress} max={run.data.progress.total} value={run.data.progress.done} aria-label='Checks done'>{run.data.progress.done} of {run.data.progress.total}</progress>}
                  <CheckResults run={run.data} />
                </>
                )}
        </div>
        <div>
          <h3>History</h3>
          <ErrorMessage message={history.error} />
          {history.data !== null && history.data.data.length === 0 && <Empty>No runs yet.</Empty>}
          {history.data !== null && history.data.data.length > 0 && (
            <ul class={styles.list} data-testid='check-history'>
              {history.data.data.map((r) => (
                <li key={r.id}>
                  <button type='button' class={styles.item} aria-current={r.id === shown} onClick={() => setSelected(r.id)}>
                    <strong>Version {r.version}</strong>
                    <RunStatusBadge status={r.status} />
                    <span class={styles.meta}>{formatDate(r.startedAt)} · {r.trigger === 'submission' ? 'at submission' : 'run by you'} · {r.progress.done}/{r.progress.total} checks</span>
                  </button>
                </li>
              ))}
            </ul>
          )}
        </div>
      </div>
    </>
  )
}
