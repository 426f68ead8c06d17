import { useState } from 'preact/hooks'
import { useRoute } from 'preact-iso'
import { AdminShell } from '../../components/admin-shell/index.tsx'
import { SettingsForm } from '../../components/settings-form/index.tsx'
import { useSession } from '../../lib/use-session.tsx'
import { useResource } from '../../lib/use-resource.ts'
import { ApiError } from '../../lib/api.ts'
import type { SettingsSchema } from '../../lib/admin-types.ts'

interface SettingsResponse { settings: Record<string, unknown>, settingsSchema: SettingsSchema | null }

/** /admin/apps/:installationId/settings: the app's global settings, as a form built from its schema. */
export default function AdminSettings () {
  const { params } = useRoute()
  const { api } = useSession()
  const url = `/merchant/installations/${encodeURIComponent(params.installationId)}/settings`
  const current = useResource<SettingsResponse>(url, () => api.get(url))
  const [busy, setBusy] = useState(false)
  const [message, setMessage] = useState<{ ok: boolean, text: string } | null>(null)

  async function save (settings: Record<string, unknown>) {
    setBusy(true)
    setMessage(null)
    try {
      await api.put(url, { settings })
      setMessage({ ok: true, text: 'Settings saved' })
    } catch (e) {
      setMessage({ ok: false, text: e instanceof ApiError ? e.message : 'Could not reach the server' })
    } finally {
      setBusy(false)
    }
  }

  return (
    <AdminShell>
      {(installs) => {
        const install = installs.find((i) => i.installationId === params.installationId)
        return (
          <section class='panel'>
            <h1>{install?.app.name ?? 'App'} settings</h1>
            {current.error !== null && <div class='error' role='alert'>{current.error}</div>}
            {message !== null && <div class={message.ok ? 'muted' : 'error'} role={message.ok ? 'status' : 'alert'}>{message.text}</div>}
            {current.data !== null && (current.data.settingsSchema === null
              ? <p>This app has no settings.</p>
              : <SettingsForm schema={current.data.settingsSchema} initial={current.data.settings} busy={busy} onSubmit={(values) => { void save(values) }} />)}
          </section>
        )
      }}
    </AdminShell>
  )
}
