import { defineErrors, errorHelpers } from '../../server/http-errors.ts'

/** The stable error codes of the App API's own checks (DESIGN §21); tokens and scopes are installations'. */
export const ERROR_CODES = defineErrors({
  payment_method_other_app: "The order is paid with another app's payment method",
  business_queue_full: "Too many of the business's requests are waiting for the database; retry after Retry-After"
})

export const { forbidden, httpError } = errorHelpers(ERROR_CODES)
