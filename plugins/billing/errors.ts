import { defineErrors, errorHelpers } from '../../server/http-errors.ts'

/** The stable error codes of app billing (DESIGN §23). */
export const ERROR_CODES = defineErrors({
  plan_unknown: 'No plan of this id in the app\'s pricing (the approved pricing on a production install)',
  plan_kind_mismatch: 'A ONE_TIME plan asked for as a subscription, or a RECURRING one as a purchase',
  currency_mismatch: 'An amount is not in the platform\'s BILLING_CURRENCY',
  return_url_foreign: 'The returnUrl is not on the app\'s App URL or redirect URL origin',
  charge_not_found: 'No charge of this id for this installation or business',
  charge_not_pending: 'The charge was already approved, declined or expired',
  charge_expired: 'The charge waited 48 hours without a decision and expired',
  charge_not_active: 'Only an ACTIVE subscription can be cancelled or take usage records',
  usage_not_in_plan: 'The subscription\'s plan has no capped usage amount',
  usage_cap_exceeded: 'The usage record would take the period\'s usage past the plan\'s capped amount'
})

export const { badRequest, conflict, fieldError, notFound, unprocessable } = errorHelpers(ERROR_CODES)
