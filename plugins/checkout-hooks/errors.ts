import { defineErrors, errorHelpers } from '../../server/http-errors.ts'

/** The stable error codes of checkout hooks (DESIGN §21). */
export const ERROR_CODES = defineErrors({
  payment_provider_unreachable: "The payment method's app did not answer; the order is saved and unpaid (`orderId`, `orderNumber`)"
})

export const { httpError } = errorHelpers(ERROR_CODES)
