import { useSession } from '../../lib/use-session.tsx'
import { useAction } from '../../lib/use-action.ts'
import { useResource } from '../../lib/use-resource.ts'
import { formatDate } from '../../lib/format.ts'
import type { AppVersion, DeveloperApp, Envelope } from '../../lib/types.ts'
import { Empty, ErrorMessage, Loading, Notice } from '../../components/states/index.tsx'
import type { SectionProps } from './section.ts'
import styles from './style.module.css'

const KIND_LABEL: Record<string, string> = { SUBMITTED: 'Submitted', APPROVED: 'Approved', REJECTED: 'Changes requested', UPDATED: 'Updated live' }

export function ReviewSection ({ app, reload }: SectionProps) {
  const { api } = useSession()
  const action = useAction()
  const versionsPath = `/developer/apps/${app.id}/versions?limit=50`
  // keyed on updatedAt so a submit (or any write) shows its new history entry
  const versions = useResource<Envelope<AppVersion>>(`${versionsPath}#${app.updatedAt}`, () => api.get(versionsPath))

  // the notes belong to the last decision: a rejection asks for changes, an approval's note does not
  const lastDecision = versions.data?.data.find((v) => v.kind === 'APPROVED' || v.kind === 'REJECTED')

  async function submit () {
    const updated = await action.run(() => api.post<DeveloperApp>(`/developer/apps/${app.id}/submit`))
    if (updated !== null) reload()
  }

  return (
    <>
      <h2>Review</h2>
      {app.status === 'PENDING_REVIEW' && <Notice>Submitted: a reviewer will approve it or ask for changes. The app cannot be edited until then.</Notice>}
      {app.status === 'APPROVED' && <p>Approved{app.isPublished ? ' and published in the marketplace' : ''}. Approved scopes: {app.approvedScopes.map((s) => <code key={s} class={styles.token}>{s}</code>)}</p>}
      {app.status === 'DRAFT' && app.reviewNotes !== null && lastDecision !== undefined && (
        <div data-testid='review-notes'>
          <strong>{lastDecision.kind === 'REJECTED' ? 'The reviewer asked for changes:' : 'The reviewer’s note when approving:'}</strong>
          <div class={lastDecision.kind === 'REJECTED' ? styles.notes : `${styles.notes} ${styles.approval}`}>{app.reviewNotes}</div>
          {lastDecision.kind === 'APPROVED' && <p class='muted'>Your edits since then go live once a reviewer approves them again.</p>}
        </div>
      )}
      {app.status === 'DRAFT' && (
        <div class={styles.row}>
          <button type='button' disabled={action.busy} onClick={() => { void submit() }}>{action.busy ? 'Submitting…' : lastDecision?.kind === 'REJECTED' ? 'Resubmit for review' : 'Submit for review'}</button>
          <span class='muted'>Reviewers check the settings, scopes and manifest.</span>
        </div>
      )}
      <ErrorMessage message={action.error} />
      <h2>History</h2>
      <ErrorMessage message={versions.error} />
      {versions.data === null
        ? versions.loading && <Loading what='Loading the history' />
        : versions.data.data.length === 0
          ? <Empty>No reviews yet: the history starts with the first submission.</Empty>
          : (
            <table class='cards' data-testid='versions'>
              <thead><tr><th>When</th><th>Event</th><th>Version</th><th>Scopes</th><th>Notes</th></tr></thead>
              <tbody>
                {versions.data.data.map((v) => (
                  <tr key={v.id}>
                    <td class={`muted ${styles.when}`}>{formatDate(v.createdAt)}</td>
                    <td data-label='Event'>{KIND_LABEL[v.kind] ?? v.kind}{v.changes.length > 0 && <div class='muted'>{v.changes.join(', ')}</div>}</td>
                    <td data-label='Version'>{v.version}</td>
                    <td data-label='Scopes'>{v.scopes.join(', ')}</td>
                    <td data-label='Notes'>{v.notes ?? <span class='muted'>—</span>}</td>
                  </tr>
                ))}
              </tbody>
            </table>
            )}
    </>
  )
}
