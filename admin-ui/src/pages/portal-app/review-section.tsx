import { useLocation } from 'preact-iso'
import { useSession } from '../../lib/use-session.tsx'
import { useAction } from '../../lib/use-action.ts'
import type { DeveloperApp } from '../../lib/types.ts'
import { ErrorMessage, Notice } from '../../components/states/index.tsx'
import { ConfirmStep } from '../../components/confirm-step/index.tsx'
import { ReviewThread } from '../../components/review-thread/index.tsx'
import type { SectionProps } from './section.ts'
import styles from './style.module.css'

/** A draft that never reached merchants can go: never published, not under review. */
function DeleteDraft ({ app }: { app: DeveloperApp }) {
  const { api } = useSession()
  const { route } = useLocation()
  const action = useAction()
  async function remove () {
    // a 204 has no body: the action's result is whether it went through
    const done = await action.run(async () => { await api.delete(`/developer/apps/${app.id}`); return true })
    if (done !== null) route(`/portal?${new URLSearchParams({ deleted: app.name })}`)
  }
  return (
    <div class={styles.row} data-testid='delete-draft'>
      <ConfirmStep
        label='Delete app' confirmLabel='Delete app for good' title={`Delete app ${app.name}`} busy={action.busy} error={action.error}
        onConfirm={() => { void remove() }}
      >
        Its test install on your sandbox ends (its token stops working and its blocks leave your sandbox pages), and its
        client ID and secret, manifest, uploads and review history are deleted. This cannot be undone.
      </ConfirmStep>
      <span class='muted'>A draft that was never published can be deleted.</span>
    </div>
  )
}

export function ReviewSection ({ app, reload }: SectionProps) {
  const { api } = useSession()
  const action = useAction()

  async function submit () {
    const updated = await action.run(() => api.post<DeveloperApp>(`/developer/apps/${app.id}/submit`))
    if (updated !== null) reload()
  }

  // the notes belong to the last decision: a rejection asks for changes, an approval's note does not
  const reviewed = app.reviewNotes !== null || app.changesRequested || app.isPublished
  return (
    <>
      <h2>Review</h2>
      {app.status === 'PENDING_REVIEW' && <Notice>Submitted: a reviewer will approve it or ask for changes. The app cannot be edited until then.</Notice>}
      {app.status === 'APPROVED' && <p>Approved{app.isPublished ? ' and published in the marketplace' : ''}. Approved scopes: {app.approvedScopes.map((s) => <code key={s} class={styles.token}>{s}</code>)}</p>}
      {app.status === 'DRAFT' && app.reviewNotes !== null && (
        <div data-testid='review-notes'>
          <strong>{app.changesRequested ? 'The reviewer asked for changes:' : 'The reviewer’s note when approving:'}</strong>
          <div class={app.changesRequested ? styles.notes : `${styles.notes} ${styles.approval}`}>{app.reviewNotes}</div>
          {!app.changesRequested && <p class='muted'>Your edits since then go live once a reviewer approves them again.</p>}
        </div>
      )}
      {app.status === 'DRAFT' && (
        <div class={styles.row}>
          <button type='button' disabled={action.busy} onClick={() => { void submit() }}>{action.busy ? 'Submitting…' : app.changesRequested ? 'Resubmit for review' : 'Submit for review'}</button>
          <span class='muted'>Reviewers check the settings, scopes, pricing and manifest.</span>
        </div>
      )}
      <ErrorMessage message={action.error} />
      <h2>History and replies</h2>
      <ReviewThread
        historyPath={`/developer/apps/${app.id}/review-history`}
        replyPath={reviewed ? `/developer/apps/${app.id}/review-replies` : null}
        refreshKey={app.updatedAt}
        replyHint='The reviewers see your reply with the app’s history.'
      />
      {!app.isPublished && app.status !== 'PENDING_REVIEW' && (<><h2>Delete</h2><DeleteDraft app={app} /></>)}
    </>
  )
}
