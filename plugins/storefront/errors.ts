import { defineErrors, errorHelpers } from '../../server/http-errors.ts'

/** The stable error codes of the public storefront API (DESIGN §21). */
export const ERROR_CODES = defineErrors({
  store_not_found: 'No store with this slug'
})

export const { notFound } = errorHelpers(ERROR_CODES)
