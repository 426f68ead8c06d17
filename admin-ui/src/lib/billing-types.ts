/** Shapes of the billing answers (DESIGN §23), as the merchant's billing screens and the Earnings tab use them: the contract's. */
import type { Static } from '@sinclair/typebox'
import type { ChargeDecisionSchema, EarningsSchema, MerchantBillingSchema } from '../../../sdk/src/contract/billing.ts'
import { formatMoney } from './money.ts'

export type { BillingMoney, ChargeStatus, Invoice, MerchantCharge, PlanInterval } from '../../../sdk/src/contract/billing.ts'
export { CHARGE_STATUS_WORDS, EARNINGS_CSV_COLUMNS } from '../../../sdk/src/contract/billing.ts'

/** GET /merchant/billing. */
export type MerchantBilling = Static<typeof MerchantBillingSchema>
/** POST /merchant/charges/:id/approve | decline. */
export type ChargeDecision = Static<typeof ChargeDecisionSchema>
/** GET /developer/apps/:appId/earnings. */
export type Earnings = Static<typeof EarningsSchema>
export type EarningsMonth = Earnings['months'][number]

/** `{amount, currency}` → "$12.34". */
export function money ({ amount, currency }: { amount: number, currency: string }): string {
  return formatMoney(amount, currency)
}

const INTERVAL_WORDS = { EVERY_30_DAYS: 'every 30 days', ANNUAL: 'every year' } as const

/** "$9.99 every 30 days", or "$49.00 once" for a one-time purchase (no interval). */
export function priceWithInterval (price: { amount: number, currency: string }, interval: keyof typeof INTERVAL_WORDS | null): string {
  return `${money(price)} ${interval === null ? 'once' : INTERVAL_WORDS[interval]}`
}

/**
 * Where the browser may go after a decision: the app's return URL, only over http(s). Anything else
 * (javascript:, data:, a relative path) is refused, so an app cannot run script on the admin origin.
 */
export function safeRedirect (url: string): string | null {
  try {
    const parsed = new URL(url)
    return parsed.protocol === 'https:' || parsed.protocol === 'http:' ? parsed.href : null
  } catch {
    return null
  }
}
