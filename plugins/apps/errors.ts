import { defineErrors, errorHelpers } from '../../server/http-errors.ts'

/** The stable error codes of apps: registration, manifests, review and media (DESIGN §21). */
export const ERROR_CODES = defineErrors({
  app_not_found: "No app with this id (or not one of the developer's)",
  app_slug_taken: 'Another app has this slug',
  app_slug_immutable: 'The slug is fixed once the app is created',
  app_url_invalid: 'A redirect, app or webhook URL the platform refuses (scheme, private address, platform origin)',
  app_image_url_invalid: 'An icon or screenshot is neither an http(s) URL nor an uploaded /media/ path',
  webhook_event_scope_missing: 'A webhook event needs a scope the app does not request',
  currency_mismatch: "A plan's price or usage cap is not in the platform's BILLING_CURRENCY",
  plan_id_duplicate: 'Two pricing plans of the app have the same id',
  plan_interval_missing: 'A RECURRING pricing plan needs an interval',
  plan_one_time_field: 'A ONE_TIME pricing plan has an interval, trialDays or usage, which only RECURRING plans take',
  app_pending_review: 'The app is pending review and cannot be edited until the review ends',
  app_not_pending_review: 'Only a PENDING_REVIEW app can be reviewed',
  app_not_draft: 'Only a DRAFT app can be submitted',
  app_published: 'A published app cannot be deleted: merchants may have installed it',
  review_reply_too_early: 'A developer replies in the review thread only after a reviewer has decided something',
  manifest_invalid: 'The manifest breaks its schema or a platform rule; `errors` lists each problem with its path',
  screenshot_limit: 'The app has the most screenshots it may',
  upload_not_multipart: 'An upload must be multipart/form-data',
  upload_file_missing: 'The multipart upload holds no file',
  upload_not_image: 'The uploaded file is not a PNG, JPEG or WebP image',
  media_not_found: 'No uploaded file with this id'
})

export const { badRequest, conflict, fieldError, notFound } = errorHelpers(ERROR_CODES)
