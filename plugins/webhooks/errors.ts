import { defineErrors, errorHelpers } from '../../server/http-errors.ts'

/** The stable error codes of webhook registrations and deliveries (DESIGN §21). */
export const ERROR_CODES = defineErrors({
  event_unknown: 'Not one of the events of the catalog',
  scope_missing: 'The installation was not granted the scope the endpoint or event needs; WWW-Authenticate names it',
  scope_pending: 'The scope is requested but the merchant has not approved it yet (re-consent pending)',
  webhook_not_found: "No webhook registration with this id of the app's installation",
  webhook_url_invalid: 'The URL is not one the platform delivers to (scheme, private address, platform origin)',
  webhook_limit_reached: 'The installation holds the most webhooks it may',
  webhook_signature_fixed: "The app's own webhook is signed as the app says; change it in the app's settings",
  webhook_inactive: 'The webhook is inactive; re-enable it first',
  webhook_deleted: 'The webhook of this delivery was deleted',
  webhook_uninstalled: 'The app was uninstalled from this business; install it again instead',
  delivery_not_found: 'No delivery with this id for the webhook',
  delivery_in_progress: 'The delivery is being attempted right now',
  test_delivery_failed: 'The test delivery could not be sent'
})

export const { badRequest, conflict, fieldError, insufficientScope, notFound } = errorHelpers(ERROR_CODES)
