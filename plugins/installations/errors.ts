import { defineErrors, errorHelpers } from '../../server/http-errors.ts'

/** The stable error codes of installations: app tokens and scopes, settings, blocks and embeds (DESIGN §21). */
export const ERROR_CODES = defineErrors({
  token_missing: 'No bearer token (or another scheme): the App API needs Authorization: Bearer fbat_…',
  token_malformed: 'The bearer token is not an access token of the platform',
  token_invalid: 'The access token is unknown, revoked, or its installation is gone',
  scope_missing: 'The installation was not granted the scope the endpoint or event needs; WWW-Authenticate names it',
  scope_pending: 'The scope is requested but the merchant has not approved it yet (re-consent pending)',
  installation_not_found: 'No active installation with this id in the business',
  app_has_installations: 'The app has merchant installations, so it cannot be deleted',
  sandbox_missing: 'The developer account has no sandbox business',
  settings_none: 'The app or extension has no settings',
  block_id_duplicate: 'Two blocks of a page have the same id',
  block_type_inactive: 'The block type is not an active block of the app',
  embed_type_inactive: 'The embed type is not an active embed of the app',
  previous_setup_not_found: 'The app was not set up on this business before this installation, so there is nothing to restore',
  previous_setup_resolved: 'The previous setup was already restored or dismissed for this installation'
})

export const { badRequest, conflict, httpError, insufficientScope, invalidToken, missingToken, notFound } = errorHelpers(ERROR_CODES)
