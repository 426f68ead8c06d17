import { AppGlyph } from '../../components/admin-shell/index.tsx'
import { ConfirmStep } from '../../components/confirm-step/index.tsx'
import { Empty } from '../../components/states/index.tsx'
import { ChargeStatusBadge, TestBadge } from '../../components/status-badge/index.tsx'
import { useSession } from '../../lib/use-session.tsx'
import { useAction } from '../../lib/use-action.ts'
import { formatDate } from '../../lib/format.ts'
import { money, priceWithInterval, type MerchantBilling, type MerchantCharge } from '../../lib/billing-types.ts'
import styles from './style.module.css'

type Usage = MerchantBilling['usage'][number]

/** Used against the cap: the figures, and a bar drawn from them (the figures are what a screen reader reads). */
function UsageMeter ({ usage, terms }: { usage: Usage, terms: string | null }) {
  const share = usage.cap.amount === 0 ? 0 : Math.min(1, usage.used.amount / usage.cap.amount)
  return (
    <div data-testid='usage'>
      <span>{money(usage.used)} of {money(usage.cap)} used this cycle</span>
      <span class={styles.bar} aria-hidden='true'>
        <span class={share >= 0.9 ? styles.barHigh : undefined} style={{ width: `${(share * 100).toFixed(1)}%` }} />
      </span>
      {terms !== null && <span class={`muted ${styles.terms}`}>{terms}</span>}
    </div>
  )
}

function SubscriptionCard ({ charge, usage, onCancelled }: {
  charge: MerchantCharge, usage: Usage | undefined, onCancelled: (charge: MerchantCharge) => void
}) {
  const { api } = useSession()
  const cancel = useAction()
  const cancelNow = async () => {
    const cancelled = await cancel.run(() => api.post<MerchantCharge>(`/merchant/subscriptions/${encodeURIComponent(charge.id)}/cancel`))
    if (cancelled !== null) onCancelled(cancelled)
  }
  const trialEnd = charge.trialEndsAt
  // the billing answer's usage line, else the charge's own balance (the same figures)
  const metered = usage ?? (charge.usage === null ? null : { subscriptionId: charge.id, used: charge.usage.balanceUsed, cap: charge.usage.cappedAmount })
  return (
    <li class={styles.card} data-testid={`subscription-${charge.id}`}>
      <div class={styles.cardHead}>
        <AppGlyph app={charge.app} />
        <h3>{charge.app.name}</h3>
        <ChargeStatusBadge status={charge.status} />
        {charge.test && <TestBadge />}
      </div>
      <dl class={styles.facts}>
        <dt>Plan</dt><dd>{charge.name}</dd>
        <dt>Price</dt><dd>{priceWithInterval(charge.price, charge.interval)}</dd>
        {trialEnd !== null && <><dt>Free trial</dt><dd>{Date.parse(trialEnd) > Date.now() ? 'until' : 'ended'} {formatDate(trialEnd)}</dd></>}
        <dt>Next charge</dt>
        <dd data-testid='next-charge'>{charge.test ? 'None: a test subscription is never billed' : formatDate(charge.currentPeriodEnd)}</dd>
        {metered !== null && <><dt>Usage</dt><dd><UsageMeter usage={metered} terms={charge.usage?.terms ?? null} /></dd></>}
      </dl>
      <div class={styles.cardActions}>
        <ConfirmStep
          label='Cancel subscription' confirmLabel='Cancel the subscription' busyLabel='Cancelling…' dismissLabel='Keep it'
          title={`Cancel subscription to ${charge.app.name} ${charge.name}`}
          busy={cancel.busy} error={cancel.error} onConfirm={() => { void cancelNow() }}
        >
          Cancel <strong>{charge.app.name}</strong>'s <strong>{charge.name}</strong> plan now? The app is told and its paid features may stop.
          {!charge.test && ' The days it was active in this cycle are on your next invoice.'}
        </ConfirmStep>
      </div>
    </li>
  )
}

/** The ACTIVE subscriptions, each with its next charge, usage against its cap and a Cancel with a confirm step. */
export function Subscriptions ({ billing, onCancelled }: { billing: MerchantBilling, onCancelled: (charge: MerchantCharge) => void }) {
  if (billing.subscriptions.length === 0) {
    return <Empty>No apps charge you. When an app asks for a subscription, you approve it here first.</Empty>
  }
  return (
    <ul class={styles.cards} data-testid='subscriptions'>
      {billing.subscriptions.map((charge) => (
        <SubscriptionCard key={charge.id} charge={charge} usage={billing.usage.find((u) => u.subscriptionId === charge.id)} onCancelled={onCancelled} />
      ))}
    </ul>
  )
}

/** Charges an app asked for that wait for the merchant: each leads to its approval screen. */
export function PendingCharges ({ pending }: { pending: MerchantCharge[] }) {
  return (
    <ul class={styles.pending} data-testid='pending-charges'>
      {pending.map((charge) => (
        <li key={charge.id}>
          <AppGlyph app={charge.app} />
          <span class={styles.pendingText}>
            <strong>{charge.app.name}</strong> · {charge.name} · {priceWithInterval(charge.price, charge.interval)}
            {charge.test && <> <TestBadge /></>}
            {charge.expiresAt !== null && <span class='muted'> · expires {formatDate(charge.expiresAt)}</span>}
          </span>
          <a class='button' href={`/admin/charges/${encodeURIComponent(charge.id)}`}>Review<span class='sr-only'> {charge.app.name} {charge.name}</span></a>
        </li>
      ))}
    </ul>
  )
}
