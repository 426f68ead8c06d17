import { defineErrors, errorHelpers } from '../../server/http-errors.ts'

/** The stable error codes of the developer console (DESIGN §21). */
export const ERROR_CODES = defineErrors({
  hook_call_not_found: 'No hook call with this id of the app',
  live_tail_limit: 'The developer has the most live tails open at once; close one first'
})

export const { notFound, tooManyRequests } = errorHelpers(ERROR_CODES)
