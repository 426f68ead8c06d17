import { useEffect, useRef, useState } from 'preact/hooks'
import { useRoute } from 'preact-iso'
import { AdminShell } from '../../components/admin-shell/index.tsx'
import { AppIcon } from '../../components/app-icon/index.tsx'
import { Empty, ErrorMessage, Loading, Notice } from '../../components/states/index.tsx'
import { ChargeStatusBadge, TestBadge } from '../../components/status-badge/index.tsx'
import { ApiError } from '../../lib/api.ts'
import { useSession } from '../../lib/use-session.tsx'
import { useResource } from '../../lib/use-resource.ts'
import { formatDate } from '../../lib/format.ts'
import { CHARGE_STATUS_WORDS, money, priceWithInterval, safeRedirect, type ChargeDecision, type MerchantCharge } from '../../lib/billing-types.ts'
import styles from './style.module.css'

type Decision = 'approve' | 'decline'

/** The 409s of a decision that came too late (the charge is no longer PENDING), by their stable codes. */
const TOO_LATE = new Set(['charge_not_pending', 'charge_expired'])

/** What the merchant agrees to, in words: the plan, price, trial, usage cap and its terms. */
function ChargeFacts ({ charge }: { charge: MerchantCharge }) {
  return (
    <dl class={styles.facts} data-testid='charge-facts'>
      <dt>Plan</dt><dd data-testid='charge-plan'>{charge.name}</dd>
      <dt>Price</dt><dd data-testid='charge-price'>{priceWithInterval(charge.price, charge.interval)}</dd>
      <dt>Kind</dt><dd>{charge.kind === 'SUBSCRIPTION' ? 'Subscription, renewed until you or the app cancel it' : 'One-time purchase'}</dd>
      {charge.kind === 'SUBSCRIPTION' && (
        <><dt>Free trial</dt><dd data-testid='charge-trial'>{charge.trialDays === 0 ? 'None' : charge.trialDays === 1 ? '1 day' : `${charge.trialDays} days`}</dd></>
      )}
      {charge.usage !== null && (
        <>
          <dt>Usage charges</dt>
          <dd data-testid='charge-usage'>
            Up to <strong>{money(charge.usage.cappedAmount)}</strong> every 30 days on top of the price
            <span class={styles.terms}>{charge.usage.terms}</span>
          </dd>
        </>
      )}
      {charge.status === 'PENDING' && charge.expiresAt !== null && <><dt>Answer by</dt><dd>{formatDate(charge.expiresAt)}</dd></>}
      {charge.trialEndsAt !== null && <><dt>Trial ends</dt><dd>{formatDate(charge.trialEndsAt)}</dd></>}
      {charge.currentPeriodEnd !== null && charge.status === 'ACTIVE' && <><dt>Next charge</dt><dd>{formatDate(charge.currentPeriodEnd)}</dd></>}
    </dl>
  )
}

/**
 * Approve or Decline, while the charge waits. The answer names where the browser goes next, the app's
 * return URL: the top window goes there only over http(s), and the URL is never put into the page as markup.
 */
function Decide ({ charge, onLate }: { charge: MerchantCharge, onLate: () => void }) {
  const { api } = useSession()
  const [busy, setBusy] = useState<Decision | null>(null)
  const [error, setError] = useState<string | null>(null)
  const [done, setDone] = useState<{ charge: MerchantCharge, leaving: boolean } | null>(null)
  const decide = async (decision: Decision) => {
    setBusy(decision)
    setError(null)
    try {
      const answer = await api.post<ChargeDecision>(`/merchant/charges/${encodeURIComponent(charge.id)}/${decision}`)
      const target = safeRedirect(answer.redirectUrl)
      setDone({ charge: answer, leaving: target !== null })
      if (target !== null) window.location.assign(target)
    } catch (e) {
      if (e instanceof ApiError && e.code !== null && TOO_LATE.has(e.code)) onLate()
      else setError(e instanceof ApiError ? e.message : 'Could not reach the server')
    } finally {
      setBusy(null)
    }
  }
  if (done !== null) {
    const words = done.charge.status === 'ACTIVE' ? 'Approved' : CHARGE_STATUS_WORDS[done.charge.status]
    return (
      <Notice>
        {words}. {done.leaving ? `Taking you back to ${charge.app.name}…` : <>{charge.app.name} gave no address to go back to. <a href='/admin/billing'>Go to billing</a></>}
      </Notice>
    )
  }
  return (
    <>
      <ErrorMessage message={error} />
      <div class={styles.actions}>
        <button type='button' class='secondary' disabled={busy !== null} onClick={() => { void decide('decline') }}>{busy === 'decline' ? 'Declining…' : 'Decline'}</button>
        <button type='button' disabled={busy !== null} onClick={() => { void decide('approve') }}>{busy === 'approve' ? 'Approving…' : 'Approve'}</button>
      </div>
    </>
  )
}

function ChargeView ({ charge, late, onLate }: { charge: MerchantCharge, late: boolean, onLate: () => void }) {
  // a PENDING charge past its expiry has not been swept yet: it can no longer be approved either
  const expired = charge.status === 'PENDING' && charge.expiresAt !== null && Date.parse(charge.expiresAt) <= Date.now()
  const open = charge.status === 'PENDING' && !expired && !late
  const status = expired ? 'EXPIRED' : charge.status
  // a refused decision changes the screen under the buttons: focus goes to the heading, the notice says why
  const heading = useRef<HTMLHeadingElement>(null)
  useEffect(() => { if (late) heading.current?.focus() }, [late])
  return (
    <article class={`panel ${styles.card}`} data-testid='charge'>
      <div class={styles.head}>
        <AppIcon name={charge.app.name} iconUrl={charge.app.iconUrl} size='large' />
        <div class={styles.titles}>
          <h1 ref={heading} tabIndex={-1}>{open ? `${charge.app.name} asks you to approve a charge` : `${charge.app.name}: ${charge.name}`}</h1>
          <div class={styles.badges}>
            <ChargeStatusBadge status={status} />
            {charge.test && <TestBadge />}
          </div>
        </div>
      </div>
      {charge.test && <p class={styles.testNote}>A test charge: approve or decline it as any other; you are never billed for it.</p>}
      {late && (
        <Notice tone='error'>
          This charge is no longer waiting for your answer{status === 'PENDING' ? '' : `: it is ${CHARGE_STATUS_WORDS[status].toLowerCase()}`}. Nothing was changed.
        </Notice>
      )}
      {!late && !open && charge.status === 'PENDING' && <Notice tone='error'>This charge expired unanswered on {formatDate(charge.expiresAt)}: ask {charge.app.name} for a new one.</Notice>}
      <ChargeFacts charge={charge} />
      {open
        ? (
          <>
            <p class='muted'>{charge.test ? 'Approving a test charge costs nothing.' : 'Approved charges are on your invoice at the end of each 30-day billing cycle. You can cancel a subscription from Billing at any time.'}</p>
            <Decide charge={charge} onLate={onLate} />
          </>
          )
        : <p><a href='/admin/billing'>Go to billing</a></p>}
    </article>
  )
}

/** /admin/charges/:id: where an app sends the merchant to approve or decline a charge (its confirmationUrl). */
export default function AdminCharge () {
  const { params } = useRoute()
  const { api } = useSession()
  const id = params.id ?? ''
  // another business's charge, or none: a 404, told apart from an error of the network or the server
  const loaded = useResource<{ charge: MerchantCharge | null }>(`merchant-charge-${id}`, async () => {
    try {
      return { charge: await api.get<MerchantCharge>(`/merchant/charges/${encodeURIComponent(id)}`) }
    } catch (e) {
      if (e instanceof ApiError && e.status === 404) return { charge: null }
      throw e
    }
  })
  const [late, setLate] = useState(false)
  return (
    <AdminShell>
      {() => (
        <section class={styles.page}>
          <p><a href='/admin/billing'>← Billing</a></p>
          <ErrorMessage message={loaded.error} />
          {loaded.data === null
            ? loaded.loading && <Loading what='Loading the charge' />
            : loaded.data.charge === null
              ? (
                <>
                  <h1>Charge not found</h1>
                  <Empty>No charge of your store has this address. <a href='/admin/billing'>Go to billing</a></Empty>
                </>
                )
              : <ChargeView charge={loaded.data.charge} late={late} onLate={() => { setLate(true); loaded.reload() }} />}
        </section>
      )}
    </AdminShell>
  )
}
