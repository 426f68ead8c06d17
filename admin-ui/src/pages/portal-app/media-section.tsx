import { useSession } from '../../lib/use-session.tsx'
import { useAction } from '../../lib/use-action.ts'
import type { DeveloperApp } from '../../lib/types.ts'
import { AppIcon } from '../../components/app-icon/index.tsx'
import { ErrorMessage } from '../../components/states/index.tsx'
import type { SectionProps } from './section.ts'
import styles from './style.module.css'

const MAX_SCREENSHOTS = 5
const ACCEPT = 'image/png,image/jpeg,image/webp'

export function MediaSection ({ app, reload }: SectionProps) {
  const { api } = useSession()
  const action = useAction()

  async function upload (kind: 'icon' | 'screenshot', input: HTMLInputElement) {
    const file = input.files?.[0]
    if (file === undefined) return
    const form = new FormData()
    form.append('file', file)
    const result = await action.run(() => api.upload<{ url: string, app: DeveloperApp }>(`/developer/apps/${app.id}/media?kind=${kind}`, form))
    input.value = ''
    if (result !== null) reload()
  }
  async function remove (url: string) {
    const updated = await action.run(() => api.patch<DeveloperApp>(`/developer/apps/${app.id}`, { screenshots: app.screenshots.filter((s) => s !== url) }))
    if (updated !== null) reload()
  }

  const full = app.screenshots.length >= MAX_SCREENSHOTS
  return (
    <>
      <h2>Icon</h2>
      <p class='muted'>PNG, JPEG or WebP, at most 1 MB. Square images look best.</p>
      <ErrorMessage message={action.error} />
      <div class={styles.upload}>
        <AppIcon name={app.name} iconUrl={app.iconUrl} size='large' />
        <label class={styles.upload}>{app.iconUrl === null ? 'Upload an icon' : 'Replace the icon'}
          <input type='file' accept={ACCEPT} disabled={action.busy} onChange={(e) => { void upload('icon', e.currentTarget as HTMLInputElement) }} />
        </label>
      </div>
      <h2>Screenshots ({app.screenshots.length} of {MAX_SCREENSHOTS})</h2>
      {app.screenshots.length === 0
        ? <p class='muted'>No screenshots yet. They appear on the app's marketplace page.</p>
        : (
          <div class={styles.media} data-testid='screenshots'>
            {app.screenshots.map((src, i) => (
              <figure key={src} class={styles.shot}>
                <img src={src} alt={`Screenshot ${i + 1}`} />
                <button type='button' class='secondary' disabled={action.busy} onClick={() => { void remove(src) }}>Remove</button>
              </figure>
            ))}
          </div>
          )}
      {full
        ? <p class='muted'>That is the maximum: remove one to add another.</p>
        : (
          <label class={styles.upload}>Add a screenshot
            <input type='file' accept={ACCEPT} disabled={action.busy} onChange={(e) => { void upload('screenshot', e.currentTarget as HTMLInputElement) }} />
          </label>
          )}
    </>
  )
}
