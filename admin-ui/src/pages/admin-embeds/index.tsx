import { useState } from 'preact/hooks'
import { useRoute } from 'preact-iso'
import { AdminShell } from '../../components/admin-shell/index.tsx'
import { SettingsForm } from '../../components/settings-form/index.tsx'
import { ErrorMessage, Loading, Notice } from '../../components/states/index.tsx'
import { useSession } from '../../lib/use-session.tsx'
import { useResource } from '../../lib/use-resource.ts'
import { useAction } from '../../lib/use-action.ts'
import type { SettingsSchema } from '../../lib/admin-types.ts'
import { PREVIEW_SANDBOX } from '../../lib/preview-sandbox.ts'
import styles from './style.module.css'

interface Embed {
  embedType: string, name: string, description: string, kind: 'GLOBAL_SCRIPT' | 'FLOATING_WIDGET', position: string,
  enabled: boolean, settings: Record<string, unknown>, settingsSchema: SettingsSchema | null
}
interface Embeds { installationId: string, embeds: Embed[] }

const KIND_LABEL = { GLOBAL_SCRIPT: 'Script on every page', FLOATING_WIDGET: 'Floating widget' } as const

function EmbedCard ({ embed, busy, onSave }: { embed: Embed, busy: boolean, onSave: (enabled: boolean, settings?: Record<string, unknown>) => void }) {
  const id = `embed-${embed.embedType}`
  return (
    <div class={`panel ${styles.embed}`} data-testid={id}>
      <div class={styles.head}>
        <div>
          <h2 class={styles.name}>{embed.name}</h2>
          <p class='muted'>{embed.description !== '' ? `${embed.description} · ` : ''}{KIND_LABEL[embed.kind]} ({embed.position.replace('_', ' ')})</p>
        </div>
        <label class={styles.toggle} for={`${id}-on`}>
          <input id={`${id}-on`} type='checkbox' role='switch' checked={embed.enabled} disabled={busy} onChange={(e) => onSave((e.currentTarget as HTMLInputElement).checked)} />
          {embed.enabled ? 'On' : 'Off'}
          <span class='sr-only'> {embed.name}</span>
        </label>
      </div>
      {embed.settingsSchema !== null && (
        <details>
          <summary>Settings</summary>
          <SettingsForm
            schema={embed.settingsSchema} initial={embed.settings} busy={busy} idPrefix={id} submitLabel='Save embed settings'
            onSubmit={(settings) => onSave(embed.enabled, settings)}
          />
        </details>
      )}
    </div>
  )
}

/**
 * /admin/apps/:installationId/embeds: the app's embeds, each with an on/off switch and its settings;
 * the storefront preview beside reloads after each change (embeds show on every page).
 */
export default function AdminEmbeds () {
  const { params } = useRoute()
  const { api } = useSession()
  const url = `/merchant/installations/${encodeURIComponent(params.installationId)}/embeds`
  const current = useResource<Embeds>(url, () => api.get(url))
  const [embeds, setEmbeds] = useState<Embeds | null>(null)
  const [version, setVersion] = useState(0)
  const [notice, setNotice] = useState<string | null>(null)
  const action = useAction()
  const shown = embeds ?? current.data

  async function save (embed: Embed, enabled: boolean, settings?: Record<string, unknown>) {
    setNotice(null)
    const body = { embeds: { [embed.embedType]: { enabled, ...(settings !== undefined ? { settings } : {}) } } }
    // the switch shows the merchant's choice while it saves (a controlled checkbox would flip back), and undoes it on failure
    const before = embeds
    if (shown !== null) setEmbeds({ ...shown, embeds: shown.embeds.map((e) => e.embedType === embed.embedType ? { ...e, enabled } : e) })
    const result = await action.run(() => api.put<Embeds>(url, body))
    if (result === null) {
      setEmbeds(before)
      return
    }
    setEmbeds(result)
    setVersion(version + 1)
    setNotice(settings !== undefined ? `${embed.name} settings saved` : `${embed.name} is ${enabled ? 'on' : 'off'}`)
  }

  return (
    <AdminShell>
      {(installs, _reload, { storefrontUrl }) => {
        const install = installs.find((i) => i.installationId === params.installationId)
        return (
          <section>
            <h1>{install?.app.name ?? 'App'} embeds</h1>
            <p class='muted'>Embeds add an app's script or floating widget to every page of your store.</p>
            {notice !== null && <Notice>{notice}</Notice>}
            <ErrorMessage message={action.error ?? current.error} problems={action.problems} />
            <div class={styles.layout}>
              <div class={styles.list}>
                {shown === null
                  ? current.loading && <Loading what='Loading embeds' />
                  : shown.embeds.length === 0
                    ? <p class='panel'>This app has no embeds.</p>
                    : shown.embeds.map((embed) => (
                      <EmbedCard
                        key={embed.embedType} embed={embed} busy={action.busy}
                        onSave={(enabled, settings) => { void save(embed, enabled, settings) }}
                      />
                    ))}
              </div>
              {storefrontUrl !== null && (
                <div class={styles.preview}>
                  <h2>Preview</h2>
                  {/* the storefront's own origin, no session: the page as customers see it */}
                  {/* a new frame per version: a frame whose src changes adds a history entry, and Back would step back inside it */}
                  <iframe key={version} class={styles.frame} title='Store preview' src={`${storefrontUrl}?v=${version}`} sandbox={PREVIEW_SANDBOX} />
                </div>
              )}
            </div>
          </section>
        )
      }}
    </AdminShell>
  )
}
