import { useState } from 'preact/hooks'
import { useSession } from '../../lib/use-session.tsx'
import { useAction } from '../../lib/use-action.ts'
import type { CreatedApp } from '../../lib/types.ts'
import { RequireRole } from '../../components/require-role/index.tsx'
import { AppForm, APP_FIELD_NAMES, EMPTY_FIELDS, type AppFields } from '../../components/app-form/index.tsx'
import { allShown } from '../../lib/field-errors.ts'
import { SecretOnce } from '../../components/secret-once/index.tsx'
import { ErrorMessage } from '../../components/states/index.tsx'

function NewApp () {
  const { api } = useSession()
  const action = useAction()
  // kept in memory only: a reload of this page forgets the secret for good
  const [created, setCreated] = useState<CreatedApp | null>(null)

  async function create (fields: AppFields) {
    const { name, slug, description, category, scopes, redirectUrl, webhookEvents } = fields
    const webhookUrl = fields.webhookUrl.trim()
    const appUrl = fields.appUrl.trim()
    const body = { name, slug, description, category, scopes, redirectUrl, webhookEvents, ...(webhookUrl !== '' ? { webhookUrl } : {}), ...(appUrl !== '' ? { appUrl } : {}) }
    const result = await action.run(() => api.post<CreatedApp>('/developer/apps', body))
    if (result !== null) setCreated(result)
  }

  if (created !== null) {
    return (
      <section class='panel' data-testid='app-created'>
        <h1>{created.app.name} is created</h1>
        <p>Your app is a draft: test it on your sandbox business, then submit it for review.</p>
        <SecretOnce title='Client credentials' secrets={[{ label: 'Client ID', value: created.app.clientId }, { label: 'Client secret', value: created.clientSecret }]} />
        <a class='button' href={`/portal/apps/${created.app.id}`}>I have stored the secret, open the app</a>
      </section>
    )
  }
  return (
    <section>
      <p><a href='/portal'>← Your apps</a></p>
      <h1>Create an app</h1>
      <ErrorMessage message={action.error} problems={action.problems} marked={allShown(action.problems, APP_FIELD_NAMES)} />
      <div class='panel'>
        <AppForm initial={EMPTY_FIELDS} mode='create' busy={action.busy} submitLabel='Create app' problems={action.problems} onSubmit={(f) => { void create(f) }} />
      </div>
    </section>
  )
}

/** `/portal/apps/new`: create an app, then see its client secret once. */
export default function NewAppPage () {
  return <RequireRole role='DEVELOPER'><NewApp /></RequireRole>
}
