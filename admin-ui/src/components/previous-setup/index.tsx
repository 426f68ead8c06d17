import { useSession } from '../../lib/use-session.tsx'
import { useResource } from '../../lib/use-resource.ts'
import { useAction } from '../../lib/use-action.ts'
import type { PreviousSetup, SetupItem } from '../../lib/admin-types.ts'
import { ErrorMessage, Loading } from '../states/index.tsx'
import styles from './style.module.css'

/** What the merchant reads for one part: "Chat embed (on)", "Hero banner block on Home, position 2". */
export function describeItem (item: SetupItem): string {
  if (item.kind === 'settings') return 'App settings'
  if (item.kind === 'embed') return `${item.name} embed (${item.enabled === true ? 'on' : 'off'})`
  return `${item.name} block on ${item.page?.title ?? 'a page'}${item.position === null ? '' : `, position ${item.position + 1}`}`
}

/** The outcome in one sentence, for the list's notice once the offer is gone. */
export function restoredSummary (appName: string, setup: PreviousSetup): string {
  const restored = setup.items.filter((item) => item.skipped === null).length
  const skipped = setup.items.length - restored
  return `${appName}: your previous setup is back (${restored} ${restored === 1 ? 'part' : 'parts'} restored` +
    `${skipped === 0 ? '' : `, ${skipped} could not be`}).`
}

interface Props { installationId: string, appName: string, onDone: (notice: string) => void }

/**
 * After a reinstall: "You had this app before" with what a restore brings back and what it cannot
 * (the app changed, a page is gone), Restore or Not now. Either choice ends the offer.
 */
export function PreviousSetupOffer ({ installationId, appName, onDone }: Props) {
  const { api } = useSession()
  const base = `/merchant/installations/${installationId}`
  const offer = useResource<PreviousSetup>(base, async () => await api.get<PreviousSetup>(`${base}/previous-setup`))
  const action = useAction()
  const headingId = `previous-setup-${installationId}`

  if (offer.loading) return <div class={styles.offer}><Loading what='Checking what you had set up before' /></div>
  if (offer.error !== null || offer.data === null) {
    return (
      <div class={styles.offer}>
        <ErrorMessage message={offer.error ?? 'Could not load your previous setup'} />
        <button class='secondary' onClick={() => { offer.reload() }}>Try again</button>
      </div>
    )
  }
  if (offer.data.status !== 'OFFERED') return null
  const restorable = offer.data.items.filter((item) => item.skipped === null)
  const skipped = offer.data.items.filter((item) => item.skipped !== null)

  const restore = async () => {
    const done = await action.run(() => api.post<PreviousSetup>(`${base}/restore-setup`))
    if (done !== null) onDone(restoredSummary(appName, done))
  }
  const dismiss = async () => {
    if (await action.run(() => api.post<PreviousSetup>(`${base}/dismiss-previous-setup`)) !== null) onDone(`${appName} keeps its fresh setup.`)
  }
  return (
    <section class={styles.offer} aria-labelledby={headingId} data-testid='previous-setup'>
      <h2 id={headingId}>You had this app before</h2>
      <p>Restore its settings, embeds and blocks as you left them? <span class='muted'>Not now keeps the fresh setup, and this offer goes away.</span></p>
      <div class={styles.lists}>
        <div>
          <h3>Will be restored</h3>
          {restorable.length === 0
            ? <p class='muted'>Nothing: the app has changed too much since.</p>
            : <ul>{restorable.map((item, i) => <li key={i}>{describeItem(item)}</li>)}</ul>}
        </div>
        {skipped.length > 0 && (
          <div>
            <h3>Cannot be restored</h3>
            <ul data-testid='previous-setup-skipped'>
              {skipped.map((item, i) => <li key={i}>{describeItem(item)}<span class={styles.why}>{item.skipped?.message}</span></li>)}
            </ul>
          </div>
        )}
      </div>
      <ErrorMessage message={action.error} />
      <div class={styles.buttons}>
        <button disabled={action.busy || restorable.length === 0} onClick={() => { void restore() }}>{action.busy ? 'Working…' : 'Restore'}</button>
        <button class='secondary' disabled={action.busy} onClick={() => { void dismiss() }}>Not now</button>
      </div>
    </section>
  )
}
