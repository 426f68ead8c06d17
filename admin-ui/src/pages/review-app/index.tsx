import { useState } from 'preact/hooks'
import { useLocation, useRoute } from 'preact-iso'
import { useSession } from '../../lib/use-session.tsx'
import { useResource, type Resource } from '../../lib/use-resource.ts'
import { useAction } from '../../lib/use-action.ts'
import { categoryLabel, formatDate } from '../../lib/format.ts'
import type { DeveloperApp, ReviewDiff, ReviewedApp } from '../../lib/types.ts'
import { RequireRole } from '../../components/require-role/index.tsx'
import { AppIcon } from '../../components/app-icon/index.tsx'
import { StatusBadge } from '../../components/status-badge/index.tsx'
import { ErrorMessage, Loading } from '../../components/states/index.tsx'
import { ScopeList } from '../../components/scope-list/index.tsx'
import { CheckResults, RunStatusBadge } from '../../components/check-results/index.tsx'
import { SnapshotDiff } from '../../components/snapshot-diff/index.tsx'
import { ReviewThread } from '../../components/review-thread/index.tsx'
import { ApiError } from '../../lib/api.ts'
import type { CheckRun } from '../../lib/check-types.ts'
import { CodeBlock } from '../../components/code-block/index.tsx'
import { PlanList } from '../../components/plan-list/index.tsx'
import { AppReviewsPanel } from './app-reviews-panel.tsx'
import styles from './style.module.css'

type RunResource = Resource<CheckRun | null>

/** The latest check run of the submitted version (null: none for this version; a 404 is an empty state, not an error). */
function useLatestRun (appId: string, version: string): RunResource {
  const { api } = useSession()
  const path = `/review/apps/${encodeURIComponent(appId)}/checks`
  return useResource<CheckRun | null>(appId === '' ? null : `${path}#${version}`, () => api.get<CheckRun>(path).catch((error: unknown) => {
    if (error instanceof ApiError && error.code === 'check_run_not_found') return null
    throw error
  }))
}

/** The run's outcome in one line, for the decision panel: what the checks found, without reading every result. */
function ChecksSummary ({ run }: { run: RunResource }) {
  if (run.loading && run.data === null) return <p class='muted' data-testid='decision-checks'>Loading the checks…</p>
  if (run.error !== null) return <p class='muted' data-testid='decision-checks'>The checks could not be loaded.</p>
  if (run.data === null || run.data === undefined) return <p class='muted' data-testid='decision-checks'>No check run for this version.</p>
  const count = (outcome: string) => run.data?.results.filter((r) => r.outcome === outcome).length ?? 0
  return (
    <p class={styles.summary} data-testid='decision-checks'>
      <RunStatusBadge status={run.data.status} />{' '}
      <span>{count('FAIL')} failed · {count('WARN')} warnings · {count('PASS')} passed · {count('SKIP')} skipped</span>{' '}
      <a href='#review-checks-title'>Read the results</a>
    </p>
  )
}

/** The latest check run of the submitted version, failures first: the first thing a reviewer reads. */
function ChecksPanel ({ run, version }: { run: RunResource, version: string }) {
  return (
    <section class={`panel ${styles.checks}`} data-testid='review-checks' aria-labelledby='review-checks-title'>
      <div class={styles.checksHead}>
        <h2 id='review-checks-title' tabIndex={-1}>App checks</h2>
        {run.data !== null && run.data !== undefined && <RunStatusBadge status={run.data.status} />}
      </div>
      {run.loading && run.data === null
        ? <Loading what='Loading the checks' />
        : run.error !== null
          ? <ErrorMessage message={run.error} />
          : run.data === null || run.data === undefined
            ? <p class='muted' data-testid='review-checks-empty'>No check run for version {version}: the platform has not tested this version.</p>
            : (
              <>
                <p class='muted'>Version {run.data.version}, {run.data.trigger === 'submission' ? 'run at submission' : 'run by the developer'} on {formatDate(run.data.startedAt)}. Failures first.</p>
                <CheckResults run={run.data} foldPasses />
              </>
              )}
    </section>
  )
}

/** What changed since the last approval (listing fields and manifest), or the whole submission of a new app. */
function ChangesPanel ({ appId, refreshKey }: { appId: string, refreshKey: string }) {
  const { api } = useSession()
  const path = `/review/apps/${encodeURIComponent(appId)}/diff`
  const diff = useResource<ReviewDiff>(`${path}#${refreshKey}`, () => api.get(path))
  return (
    <section class={`panel ${styles.checks}`} data-testid='review-changes' aria-labelledby='review-changes-title'>
      <h2 id='review-changes-title'>Changes since the last approval</h2>
      {diff.data === null
        ? diff.loading ? <Loading what='Comparing with the approved version' /> : <ErrorMessage message={diff.error} />
        : diff.data.baseline === null
          ? <p class='muted' data-testid='diff-new'>Never approved: everything below is new (the listing and the manifest).</p>
          : (
            <>
              <p class='muted'>Against version {diff.data.baseline.version}, approved {formatDate(diff.data.baseline.approvedAt)}.</p>
              <SnapshotDiff before={diff.data.baseline.snapshot} after={diff.data.current} />
            </>
            )}
    </section>
  )
}

const STATUS_WORDS: Record<DeveloperApp['status'], string> = { DRAFT: 'a draft', PENDING_REVIEW: 'pending review', APPROVED: 'approved' }

/**
 * The decision: first in the page's order (the first stop after the title by keyboard, the top of the page
 * at 390 px) and beside the results at wider widths, where it stays in view while the reviewer scrolls.
 */
function DecisionPanel ({ app: a, run, onDecide, busy, error }: {
  app: ReviewedApp, run: RunResource, onDecide: (decision: 'approve' | 'reject', notes: string) => void, busy: boolean, error: string | null
}) {
  const [notes, setNotes] = useState('')
  const open = a.status === 'PENDING_REVIEW'
  return (
    <section class={`panel ${styles.decide}`} data-testid='review-decision' aria-labelledby='review-decision-title'>
      <h2 id='review-decision-title'>Decision</h2>
      <ChecksSummary run={run} />
      {a.reviewNotes !== null && <p class='muted'>Earlier notes: {a.reviewNotes}</p>}
      {open
        ? (
          <>
            <label>
              Notes for the developer
              <textarea rows={4} value={notes} maxLength={5000} aria-describedby='review-notes-hint' onInput={(e) => setNotes((e.currentTarget as HTMLTextAreaElement).value)} />
            </label>
            <span class='muted' id='review-notes-hint'>Optional to approve, required to reject.</span>
          </>
          )
        : <p class='muted' data-testid='decision-closed'>Nothing to decide: this version is {STATUS_WORDS[a.status]}. A decision opens when the developer submits a version.</p>}
      <ErrorMessage message={error} />
      {open && (
        <div class={styles.buttons}>
          <button type='button' disabled={busy} onClick={() => { onDecide('approve', notes) }}>Approve</button>
          <button type='button' class='danger' disabled={busy || notes.trim() === ''} onClick={() => { onDecide('reject', notes) }}>Reject</button>
        </div>
      )}
    </section>
  )
}

function ReviewApp () {
  const { api } = useSession()
  const { params } = useRoute()
  const { route } = useLocation()
  const appId = params.appId ?? ''
  const app = useResource<ReviewedApp>(`/review/apps/${appId}`, () => api.get(`/review/apps/${encodeURIComponent(appId)}`))
  const run = useLatestRun(app.data?.id ?? '', app.data?.version ?? '')
  const action = useAction()

  async function decide (decision: 'approve' | 'reject', notes: string, name: string) {
    const body = notes.trim() === '' ? {} : { notes: notes.trim() }
    const result = await action.run(() => api.post<DeveloperApp>(`/review/apps/${encodeURIComponent(appId)}/${decision}`, body))
    if (result !== null) route(`/reviewer?${new URLSearchParams({ done: decision === 'approve' ? 'approved' : 'rejected', app: name })}`)
  }

  if (app.data === null) {
    return (
      <section>
        <p><a href='/reviewer'>← Review queue</a></p>
        {app.loading ? <Loading what='Loading the app' /> : <ErrorMessage message={app.error} />}
      </section>
    )
  }
  const a = app.data
  return (
    <section data-testid='review-app'>
      <p><a href='/reviewer'>← Review queue</a></p>
      <div class={styles.head}>
        <AppIcon name={a.name} iconUrl={a.iconUrl} size='large' />
        <div class={styles.titles}><h1>{a.name}</h1><span class='muted'>{a.slug} · version {a.version} · {categoryLabel(a.category)}</span></div>
        <StatusBadge status={a.status} changesRequested={a.changesRequested} isPublished={a.isPublished} />
      </div>
      <div class={styles.layout}>
        <DecisionPanel app={a} run={run} busy={action.busy} error={action.error} onDecide={(decision, notes) => { void decide(decision, notes, a.name) }} />
        <div class={styles.main}>
          <ChecksPanel run={run} version={a.version} />
          <ChangesPanel appId={a.id} refreshKey={a.updatedAt} />
          {a.isPublished && <AppReviewsPanel appId={a.id} />}
          <div class='panel'>
            <h2>Listing</h2>
            <p class={styles.description}>{a.description}</p>
            <dl class={styles.facts}>
              <dt>Redirect URL</dt><dd><code>{a.redirectUrl}</code></dd>
              <dt>App URL</dt>
              <dd data-testid='review-app-url'>{a.appUrl !== null ? <code>{a.appUrl}</code> : <span class={styles.flag}>None: merchants cannot install it from the marketplace</span>}</dd>
              <dt>Webhook URL</dt><dd>{a.webhookUrl !== null ? <code>{a.webhookUrl}</code> : <span class='muted'>none</span>}</dd>
              <dt>Webhook events</dt><dd>{a.webhookEvents.length > 0 ? a.webhookEvents.join(', ') : <span class='muted'>none</span>}</dd>
              <dt>Published</dt><dd>{a.isPublished ? 'Yes: this is an update' : 'No: a new app'}</dd>
              <dt>Last change</dt><dd>{formatDate(a.updatedAt)}</dd>
            </dl>
            <h2>Scopes</h2>
            <dl class={styles.facts} data-testid='review-scopes'>
              <dt>Requested</dt><dd><ScopeList scopes={a.scopes} added={a.addedScopes} /></dd>
              <dt>Approved now</dt><dd>{a.approvedScopes.length > 0 ? <ScopeList scopes={a.approvedScopes} added={[]} /> : <span class='muted'>none (never approved)</span>}</dd>
            </dl>
            <h2>Pricing</h2>
            <dl class={styles.facts} data-testid='review-pricing'>
              <dt>Submitted{a.pricingChanged && <> <span class={styles.flag}>changed</span></>}</dt><dd><PlanList pricing={a.pricing} /></dd>
              <dt>Approved now</dt><dd>{a.approvedPricing !== null ? <PlanList pricing={a.approvedPricing} /> : <span class='muted'>none (never approved)</span>}</dd>
            </dl>
            {a.screenshots.length > 0 && <><h2>Screenshots</h2><div class={styles.shots}>{a.screenshots.map((src) => <img key={src} src={src} alt='Screenshot' />)}</div></>}
            <h2>Manifest</h2>
            <CodeBlock label='Manifest' testId='review-manifest' text={JSON.stringify(a.manifest, null, 2)} dark />
            <h2>History and replies</h2>
            <ReviewThread
              historyPath={`/review/apps/${encodeURIComponent(a.id)}/history`}
              replyPath={`/review/apps/${encodeURIComponent(a.id)}/replies`}
              refreshKey={a.updatedAt}
              replyHint='The developer sees your reply on the app’s Review tab.'
            />
          </div>
        </div>
      </div>
    </section>
  )
}

/** `/reviewer/apps/:appId`: one submitted app and the approve / reject decision. */
export default function ReviewAppPage () {
  return <RequireRole role='REVIEWER'><ReviewApp /></RequireRole>
}
