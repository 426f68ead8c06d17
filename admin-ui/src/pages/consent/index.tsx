import { useEffect, useState } from 'preact/hooks'
import { useLocation } from 'preact-iso'
import { useSession } from '../../lib/use-session.tsx'
import { useResource } from '../../lib/use-resource.ts'
import { ApiError } from '../../lib/api.ts'
import { ConsentView } from '../../components/consent-view/index.tsx'
import type { Pricing } from '../../../../sdk/src/contract/billing.ts'
import styles from './style.module.css'

interface ConsentInfo {
  app: { name: string, description: string, iconUrl: string | null, developerName: string }
  scopes: Array<{ name: string, description: string }>
  pricing: Pricing
  business: { name: string, isSandbox: boolean }
  isTestInstall: boolean
  alreadyInstalled: boolean
}

const FORWARDED = ['client_id', 'redirect_uri', 'scope', 'state', 'response_type', 'response_mode', 'code_challenge', 'code_challenge_method'] as const

/**
 * A problem the server found after the client and its redirect_uri checked out goes back to the app
 * (RFC 6749 §4.1.2.1): the 400 names where to send the browser. Nothing to show meanwhile.
 */
function returnToApp (error: unknown): boolean {
  const redirectTo = error instanceof ApiError ? (error.body as { redirectTo?: unknown }).redirectTo : undefined
  if (typeof redirectTo !== 'string') return false
  window.location.assign(redirectTo)
  return true
}

/** GET {admin_url}/oauth/authorize: the merchant (or developer, for their sandbox) approves or denies an install. */
export default function Consent () {
  const { session, api } = useSession()
  const { url, query, route } = useLocation()
  const [error, setError] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  // after Deny: where the app would be told (error=access_denied); the merchant chooses to go there or back to the admin
  const [denied, setDenied] = useState<string | null>(null)
  const params = Object.fromEntries(FORWARDED.filter((k) => query[k] !== undefined).map((k) => [k, query[k]]))
  const infoQuery = new URLSearchParams({ client_id: query.client_id ?? '', redirect_uri: query.redirect_uri ?? '', ...params })
  const info = useResource<ConsentInfo>(session === null ? null : `/oauth/authorize/info?${infoQuery}`, async () => {
    try {
      return await api.get<ConsentInfo>(`/oauth/authorize/info?${infoQuery}`)
    } catch (error) {
      // the browser is leaving for the app: stay on "Loading…" rather than flash an error
      if (returnToApp(error)) return await new Promise<ConsentInfo>(() => {})
      throw error
    }
  })

  useEffect(() => {
    if (session === null) route(`/login?next=${encodeURIComponent(url)}`, true)
  }, [session])
  if (session === null) return null

  async function decide (decision: 'approve' | 'deny') {
    setBusy(true)
    setError(null)
    try {
      const { redirectTo } = await api.post<{ redirectTo: string }>('/oauth/authorize', { ...params, decision })
      if (decision === 'deny') {
        setDenied(redirectTo)
        setBusy(false)
        return
      }
      window.location.assign(redirectTo)
    } catch (e) {
      if (returnToApp(e)) return
      setError(e instanceof ApiError ? e.message : 'Could not reach the server')
      setBusy(false)
    }
  }

  if (info.loading) return <div class={`panel ${styles.card}`}><p class='muted'>Loading…</p></div>
  if (info.data === null) {
    return (
      <div class={`panel ${styles.card}`}>
        <h1>This install link does not work</h1>
        <div class='error' role='alert'>{info.error}</div>
        <p class='muted'>Nothing was installed. Go back to the app and try again, or contact its developer.</p>
      </div>
    )
  }
  const { app, scopes, business, isTestInstall, alreadyInstalled } = info.data
  if (denied !== null) {
    // a developer's sandbox admin is the portal's app page; a merchant's is the apps screen
    const adminHome = session.user.role === 'DEVELOPER' ? '/portal' : '/admin/apps'
    return (
      <div class={`panel ${styles.card}`} data-testid='consent-denied'>
        <h1>You denied {app.name}</h1>
        <p>{alreadyInstalled ? `Nothing changed: ${app.name} keeps only the access it had on ${business.name}.` : `Nothing was installed: ${app.name} has no access to ${business.name}.`}</p>
        <div class={styles.actions}>
          <button class='secondary' onClick={() => { window.location.assign(denied) }}>Return to {app.name}</button>
          <a class='button' href={adminHome}>Back to the admin</a>
        </div>
        <p class='muted'>Returning to {app.name} tells it that you said no; it may offer to try again.</p>
      </div>
    )
  }
  const target = (
    <>
      {alreadyInstalled ? 'Update the app on ' : 'Install on '}<strong>{business.name}</strong>
      {isTestInstall && <span class={styles.badge}>Sandbox · test install</span>}
    </>
  )
  return (
    <ConsentView app={app} target={target} scopes={scopes.map((scope) => scope.name)} pricing={info.data.pricing}>
      {error !== null && <div class='error' role='alert'>{error}</div>}
      <div class={styles.actions}>
        <button class='secondary' disabled={busy} onClick={() => { void decide('deny') }}>Deny</button>
        <button disabled={busy} onClick={() => { void decide('approve') }}>{alreadyInstalled ? 'Approve update' : 'Install app'}</button>
      </div>
    </ConsentView>
  )
}
