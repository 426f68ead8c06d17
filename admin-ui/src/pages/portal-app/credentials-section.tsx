import { useState } from 'preact/hooks'
import { useSession } from '../../lib/use-session.tsx'
import { useAction } from '../../lib/use-action.ts'
import { SecretOnce } from '../../components/secret-once/index.tsx'
import { ErrorMessage } from '../../components/states/index.tsx'
import type { SectionProps } from './section.ts'
import styles from './style.module.css'

export function CredentialsSection ({ app }: SectionProps) {
  const { api } = useSession()
  const action = useAction()
  const [confirming, setConfirming] = useState(false)
  const [secret, setSecret] = useState<string | null>(null)

  async function regenerate () {
    const result = await action.run(() => api.post<{ clientSecret: string }>(`/developer/apps/${app.id}/client-secret`))
    setConfirming(false)
    if (result !== null) setSecret(result.clientSecret)
  }

  return (
    <>
      <h2>Credentials</h2>
      <div class={styles.field}><span>Client ID</span><code class={styles.token} data-testid='client-id'>{app.clientId}</code></div>
      <div class={styles.field}><span>Client secret</span><span class='muted'>Shown only when it is created. Lost it? Make a new one.</span></div>
      <div class={styles.field}><span>Redirect URL</span><code class={styles.token}>{app.redirectUrl}</code></div>
      <ErrorMessage message={action.error} />
      {secret !== null && <SecretOnce title='New client secret' secrets={[{ label: 'Client secret', value: secret }]} />}
      {confirming
        ? (
          <div class={styles.confirm}>
            <p>
              <strong>Regenerate the client secret?</strong> The current secret stops working at once: update your app's server before its
              next token exchange.
            </p>
            <div class={styles.row}>
              <button type='button' class='danger' disabled={action.busy} onClick={() => { void regenerate() }}>Yes, regenerate</button>
              <button type='button' class='secondary' onClick={() => setConfirming(false)}>Cancel</button>
            </div>
          </div>
          )
        : <div class={styles.row}><button type='button' class='secondary' onClick={() => { setSecret(null); setConfirming(true) }}>Regenerate secret</button></div>}
    </>
  )
}
