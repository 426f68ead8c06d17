import { useEffect, useState } from 'preact/hooks'
import { useLocation } from 'preact-iso'
import { useSession } from '../../lib/use-session.tsx'
import { useAction } from '../../lib/use-action.ts'
import { formatDate } from '../../lib/format.ts'
import { RequireRole } from '../../components/require-role/index.tsx'
import { ErrorMessage } from '../../components/states/index.tsx'
import styles from './style.module.css'

interface DeviceLogin { clientName: string, requestedFrom: string | null, status: string, createdAt: string, expiresAt: string }

/** Enter the code the CLI shows, see which device asks, then approve or deny (RFC 8628 §3.3). */
function DeviceApproval () {
  const { api } = useSession()
  const { query } = useLocation()
  const [code, setCode] = useState(query.user_code ?? '')
  const [login, setLogin] = useState<DeviceLogin | null>(null)
  const [decided, setDecided] = useState<'approve' | 'deny' | null>(null)
  const lookup = useAction()
  const decide = useAction()

  async function find (value: string) {
    setLogin(null)
    const found = await lookup.run(() => api.get<DeviceLogin>(`/oauth/device?user_code=${encodeURIComponent(value)}`))
    if (found !== null) setLogin(found)
  }
  // a verification_uri_complete link carries the code: look it up at once, the developer still decides
  useEffect(() => { if (query.user_code !== undefined && query.user_code !== '') void find(query.user_code) }, [])

  async function answer (decision: 'approve' | 'deny') {
    // 204: no body, so the call is mapped to `true` to tell success from run()'s null
    if (await decide.run(async () => { await api.post('/oauth/device', { user_code: code, decision }); return true }) === true) setDecided(decision)
  }

  if (decided !== null) {
    return (
      <div class={`panel ${styles.card}`} data-testid='device-done'>
        <h1>{decided === 'approve' ? 'CLI signed in' : 'Login denied'}</h1>
        <p class='muted'>{decided === 'approve' ? 'Go back to your terminal: the CLI picks up its token within a few seconds. You can revoke it under Portal → CLI tokens.' : 'The CLI was refused. Nothing was signed in.'}</p>
      </div>
    )
  }
  return (
    <div class={`panel ${styles.card}`}>
      <h1>Sign in the developer CLI</h1>
      <p class='muted'>Enter the code that <code>app-platform login</code> shows in your terminal.</p>
      <form onSubmit={(event) => { event.preventDefault(); void find(code) }}>
        <label>
          Code
          <input
            name='user_code' value={code} autoComplete='off' spellcheck={false} placeholder='BCDF-GHJK' required
            onInput={(event) => setCode(event.currentTarget.value)}
          />
        </label>
        <button type='submit' class='secondary' disabled={lookup.busy}>Continue</button>
      </form>
      <ErrorMessage message={lookup.error} />
      {login !== null && (
        <div data-testid='device-login'>
          <p>A device asked to act as you in the developer portal and console, for 30 days.</p>
          {/* the name is the device's own words (RFC 8628 §5.4): shown quoted and labelled, apart from what the platform saw */}
          <dl class={styles.requester} data-testid='device-requester'>
            <dt>Name chosen by the device</dt>
            <dd><q class={styles.chosen}>{login.clientName}</q></dd>
            <dt>Requested from</dt>
            <dd>{login.requestedFrom ?? 'an address not recorded'}</dd>
            <dt>Requested at</dt>
            <dd>{formatDate(login.createdAt)}</dd>
          </dl>
          <p class='muted'>
            The platform never asks you to approve a login: approve only if you started this one yourself, from this address,
            and the code matches your terminal. Whatever the name says, it was written by the device.
          </p>
          <ErrorMessage message={decide.error} />
          <div class={styles.actions}>
            <button class='secondary' disabled={decide.busy} onClick={() => { void answer('deny') }}>Deny</button>
            <button disabled={decide.busy} onClick={() => { void answer('approve') }}>Approve</button>
          </div>
        </div>
      )}
    </div>
  )
}

/** `/device`: a signed-in developer approves a CLI login. */
export default function DevicePage () {
  return <RequireRole role='DEVELOPER'><DeviceApproval /></RequireRole>
}
