import type { Pricing, PricingPlan } from '../../../../sdk/src/contract/billing.ts'
import { formatMoney } from '../../lib/money.ts'
import styles from './style.module.css'

const INTERVAL_WORDS = { EVERY_30_DAYS: 'every 30 days', ANNUAL: 'a year' } as const

/** "$19.00 every 30 days", "$49.00 once". */
export function planPrice (plan: PricingPlan): string {
  const price = formatMoney(plan.price.amount, plan.price.currency)
  return plan.kind === 'ONE_TIME' ? `${price} once` : `${price} ${INTERVAL_WORDS[plan.interval ?? 'EVERY_30_DAYS']}`
}

/**
 * An app's pricing as a merchant reads it before installing (DESIGN §23): each plan's name, price and
 * interval, its trial and its usage cap with the terms; no plans: Free.
 */
export function PlanList ({ pricing }: { pricing: Pricing }) {
  if (pricing.plans.length === 0) return <p class={styles.free} data-testid='pricing-free'>Free</p>
  return (
    <ul class={styles.plans} data-testid='pricing-plans'>
      {pricing.plans.map((plan) => (
        <li key={plan.id} data-plan={plan.id}>
          <div class={styles.line}><strong>{plan.name}</strong><span class={styles.price}>{planPrice(plan)}</span></div>
          {(plan.trialDays ?? 0) > 0 && <div class={styles.detail}>{plan.trialDays}-day free trial</div>}
          {plan.usage !== undefined && (
            <div class={styles.detail}>
              Usage charges up to {formatMoney(plan.usage.cappedAmount.amount, plan.usage.cappedAmount.currency)} every 30 days: {plan.usage.terms}
            </div>
          )}
        </li>
      ))}
    </ul>
  )
}
