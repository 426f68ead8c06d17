import { defineErrors, errorHelpers } from '../../server/http-errors.ts'

/** The stable error codes of app reviews (DESIGN §24). */
export const ERROR_CODES = defineErrors({
  review_not_allowed: 'The business has no real installation of the app old enough to review it (none, a test install, too young, or uninstalled 90 days ago or more)',
  app_review_not_found: 'No review of this id for this app, or the business has not reviewed the app',
  reply_exists: 'The review already has the developer\'s answer: one per review'
})

export const { conflict, forbidden, notFound } = errorHelpers(ERROR_CODES)
