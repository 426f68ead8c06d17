import { defineErrors, errorHelpers } from '../../server/http-errors.ts'

/** The stable error codes of the local relay (DESIGN §21). */
export const ERROR_CODES = defineErrors({
  sandbox_missing: 'The developer account has no sandbox business',
  relayed_call_not_found: 'No relayed call with this id is waiting for an answer',
  event_unknown: 'Not one of the events the relay can trigger'
})

export const { badRequest, notFound } = errorHelpers(ERROR_CODES)
