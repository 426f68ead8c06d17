import { defineErrors, errorHelpers } from '../../server/http-errors.ts'

/** The stable error codes of app checks (DESIGN §21). */
export const ERROR_CODES = defineErrors({
  app_not_found: "No app with this id (or not one of the developer's)",
  sandbox_missing: 'The developer account has no sandbox business',
  check_run_busy: 'A check run is already running for this app',
  check_run_not_found: 'No check run with this id, or none yet for this version'
})

export const { badRequest, conflict, notFound } = errorHelpers(ERROR_CODES)
