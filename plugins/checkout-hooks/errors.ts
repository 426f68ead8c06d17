import { defineErrors, errorHelpers } from '../../server/http-errors.ts'

/** The stable error codes of checkout hooks (DESIGN §21). */
export const ERROR_CODES = defineErrors({
  hook_call_not_found: 'No hook call with this id of the app',
  payment_provider_unreachable: "The payment method's app did not answer; the order is saved and unpaid (`orderId`, `orderNumber`)"
})

export const { httpError, notFound } = errorHelpers(ERROR_CODES)
