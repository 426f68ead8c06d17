import type { Pricing } from '../../sdk/src/contract/billing.ts'
import type { ErrorItem } from '../../server/http-errors.ts'
import { badRequest, type ERROR_CODES } from './errors.ts'

/** What only RECURRING plans take (DESIGN §23 "Settled details": a ONE_TIME plan with one of them is a 400). */
const RECURRING_ONLY = ['interval', 'trialDays', 'usage'] as const

/**
 * The rules of a pricing the schema cannot say (its shape, the 10 plans, trialDays 0–90 and integer
 * amounts are the schema's): plan ids unique, every amount in the platform's currency, an interval on
 * each RECURRING plan and none of the recurring fields on a ONE_TIME one. Every problem at once, each at
 * its path under `/pricing`, so a form marks each field; nothing is written when one is found.
 */
export function checkPricing (pricing: Pricing, currency: string): void {
  const problems: ErrorItem[] = []
  const problem = ({ path, message, code }: { path: string, message: string, code: keyof typeof ERROR_CODES }) =>
    problems.push({ in: 'body', path: `/pricing/plans${path}`, message, code })
  const seen = new Set<string>()
  pricing.plans.forEach((plan, i) => {
    if (seen.has(plan.id)) problem({ path: `/${i}/id`, message: 'is the id of another plan: each plan needs its own', code: 'plan_id_duplicate' })
    seen.add(plan.id)
    if (plan.price.currency !== currency) problem({ path: `/${i}/price/currency`, message: `must be ${currency}, the platform's billing currency`, code: 'currency_mismatch' })
    if (plan.usage !== undefined && plan.usage.cappedAmount.currency !== currency) {
      problem({ path: `/${i}/usage/cappedAmount/currency`, message: `must be ${currency}, the platform's billing currency`, code: 'currency_mismatch' })
    }
    if (plan.kind === 'RECURRING') {
      if (plan.interval === undefined) problem({ path: `/${i}/interval`, message: 'is required for a RECURRING plan (EVERY_30_DAYS or ANNUAL)', code: 'plan_interval_missing' })
    } else {
      for (const field of RECURRING_ONLY) {
        if (plan[field] !== undefined) problem({ path: `/${i}/${field}`, message: 'is for RECURRING plans only: remove it from a ONE_TIME plan', code: 'plan_one_time_field' })
      }
    }
  })
  if (problems.length === 0) return
  const [first] = problems
  throw badRequest('validation_failed', `body${first.path} ${first.message}${problems.length > 1 ? ` (and ${problems.length - 1} more)` : ''}`, { errors: problems })
}

/** The JSON of a pricing with its keys sorted: jsonb keeps its own key order, so two equal pricings compare equal. */
function canonical (value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical)
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(Object.keys(value).sort().map((key) => [key, canonical((value as Record<string, unknown>)[key])]))
  }
  return value
}

/** Whether two pricings say the same; a never-approved pricing (null) is the same as none, no plans. */
export function samePricing (a: Pricing | null, b: Pricing | null): boolean {
  return JSON.stringify(canonical(a ?? { plans: [] })) === JSON.stringify(canonical(b ?? { plans: [] }))
}

/** The pricing a listing or a merchant's consent shows: the approved one, free (no plans) before any approval. */
export const listedPricing = (app: { approvedPricing: Pricing | null }): Pricing => app.approvedPricing ?? { plans: [] }
