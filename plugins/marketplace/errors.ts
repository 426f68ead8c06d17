import { defineErrors, errorHelpers } from '../../server/http-errors.ts'

/** The stable error codes of the marketplace (DESIGN §21). */
export const ERROR_CODES = defineErrors({
  app_not_found: 'No published app with this slug'
})

export const { notFound } = errorHelpers(ERROR_CODES)
