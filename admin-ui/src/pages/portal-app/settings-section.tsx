import { useState } from 'preact/hooks'
import { useSession } from '../../lib/use-session.tsx'
import { useAction } from '../../lib/use-action.ts'
import type { DeveloperApp } from '../../lib/types.ts'
import { AppForm, APP_FIELD_NAMES, fieldsOf, type AppFields } from '../../components/app-form/index.tsx'
import { allShown } from '../../lib/field-errors.ts'
import { ErrorMessage, Notice } from '../../components/states/index.tsx'
import type { SectionProps } from './section.ts'

export function SettingsSection ({ app, reload }: SectionProps) {
  const { api } = useSession()
  const action = useAction()
  const [saved, setSaved] = useState<string | null>(null)

  async function save (fields: AppFields) {
    setSaved(null)
    const webhookUrl = fields.webhookUrl.trim()
    const body = {
      name: fields.name, description: fields.description, category: fields.category, scopes: fields.scopes,
      redirectUrl: fields.redirectUrl, appUrl: fields.appUrl.trim() === '' ? null : fields.appUrl.trim(), webhookUrl: webhookUrl === '' ? null : webhookUrl, webhookEvents: fields.webhookEvents, version: fields.version,
      apiVersion: fields.apiVersion === '' ? null : fields.apiVersion
    }
    const updated = await action.run(() => api.patch<DeveloperApp>(`/developer/apps/${app.id}`, body))
    if (updated === null) return
    setSaved(app.isPublished && updated.status === 'DRAFT' && app.status === 'APPROVED'
      ? 'Saved. The new scopes need a review: submit the app from the Review tab. The live listing keeps its approved scopes until then.'
      : 'Settings saved.')
    reload()
  }

  return (
    <>
      <h2>Settings</h2>
      {app.status === 'PENDING_REVIEW' && <p class='muted'>This app is waiting for review; edits are refused until the review ends.</p>}
      {saved !== null && <Notice>{saved}</Notice>}
      <ErrorMessage message={action.error} problems={action.problems} marked={allShown(action.problems, APP_FIELD_NAMES)} />
      <AppForm initial={fieldsOf(app)} mode='edit' busy={action.busy} submitLabel='Save settings' problems={action.problems} onSubmit={(f) => { void save(f) }} />
    </>
  )
}
