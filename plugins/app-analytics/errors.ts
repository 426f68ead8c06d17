import { defineErrors, errorHelpers } from '../../server/http-errors.ts'

/** The stable error codes of the developer console (DESIGN §21). */
export const ERROR_CODES = defineErrors({
  live_tail_limit: 'The developer has the most live tails open at once; close one first'
})

export const { tooManyRequests } = errorHelpers(ERROR_CODES)
