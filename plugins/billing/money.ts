/**
 * Exact integer money of app billing (DESIGN §23, docs/decisions.md "Proration and rounding"): every
 * amount is integer minor units, and each computed line is rounded once, half up, with integer
 * arithmetic (BigInt), so no float ever touches an amount.
 */

/** `amount × numerator / denominator`, rounded half up to the minor unit; amounts and ratios are non-negative. */
export function shareHalfUp (amount: number, numerator: number, denominator: number): number {
  if (!Number.isSafeInteger(amount) || amount < 0) throw new RangeError(`shareHalfUp: amount ${amount} is not a non-negative integer`)
  if (denominator <= 0 || numerator < 0) throw new RangeError('shareHalfUp: the ratio must be non-negative with a positive denominator')
  const n = BigInt(Math.round(numerator))
  const d = BigInt(Math.round(denominator))
  return Number((BigInt(amount) * n * 2n + d) / (2n * d))
}

/** A recurring fee for the part `activeMs` of a cycle of `cycleMs` the subscription was billable, half up. */
export const prorate = (price: number, activeMs: number, cycleMs: number): number =>
  activeMs >= cycleMs ? price : shareHalfUp(price, Math.max(0, activeMs), cycleMs)

/** The platform's fee on one invoice line: `percent` of it, half up (a percent may have two decimals). */
export const feeOf = (amount: number, percent: number): number => shareHalfUp(amount, Math.round(percent * 100), 100 * 100)

/** An ANNUAL plan's share of a month for the recurring-revenue figure: a twelfth, half up. */
export const monthlyOfAnnual = (price: number): number => shareHalfUp(price, 1, 12)

/** The sum of integer amounts, refusing to leave the safe integers. */
export function sum (amounts: number[]): number {
  const total = amounts.reduce((a, b) => a + b, 0)
  if (!Number.isSafeInteger(total)) throw new RangeError('sum: the total leaves the safe integer range')
  return total
}
