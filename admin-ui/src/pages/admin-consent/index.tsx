import { useLocation, useRoute } from 'preact-iso'
import { AdminShell } from '../../components/admin-shell/index.tsx'
import { ConsentView } from '../../components/consent-view/index.tsx'
import { ErrorMessage } from '../../components/states/index.tsx'
import { useSession } from '../../lib/use-session.tsx'
import { useAction } from '../../lib/use-action.ts'
import type { InstalledApp } from '../../lib/admin-types.ts'
import styles from './style.module.css'

function Reconsent ({ install, onDone }: { install: InstalledApp, onDone: () => void }) {
  const { api } = useSession()
  const { route } = useLocation()
  const action = useAction()
  const approve = async () => {
    // in place (spec, DESIGN §16): the app's token gains the scopes; no code, no redirect, no new token
    if (await action.run(() => api.post(`/merchant/installations/${install.installationId}/consent`)) === null) return
    onDone()
    route(`/admin/apps?${new URLSearchParams({ approved: install.app.name })}`)
  }
  if (!install.needsReConsent) {
    return <section class='panel'><h1>Nothing to approve</h1><p>{install.app.name} has every permission it asks for. <a href='/admin/apps'>Back to installed apps</a></p></section>
  }
  return (
    <ConsentView
      app={install.app}
      target={<>{install.app.name} is installed. It was updated and asks for more access.</>}
      added={install.pendingScopes}
      granted={install.grantedScopes}
    >
      <ErrorMessage message={action.error} />
      <div class={styles.actions}>
        <a class='button secondary' href='/admin/apps'>Keep current access</a>
        <button disabled={action.busy} onClick={() => { void approve() }}>Approve new permissions</button>
      </div>
    </ConsentView>
  )
}

/** /admin/apps/:installationId/consent: re-consent to an app's added scopes, on the consent screen's view. */
export default function AdminConsent () {
  const { params } = useRoute()
  return (
    <AdminShell>
      {(installs, reload) => {
        const install = installs.find((i) => i.installationId === params.installationId)
        return install === undefined
          ? <section class='panel'><h1>App not found</h1><p>This app is not installed. <a href='/admin/apps'>Back to installed apps</a></p></section>
          : <Reconsent install={install} onDone={reload} />
      }}
    </AdminShell>
  )
}
