import { defineErrors, errorHelpers } from '../../server/http-errors.ts'

/** The stable error codes of accounts, sessions and CLI tokens (DESIGN §21). */
export const ERROR_CODES = defineErrors({
  session_missing: 'No bearer token: sign in and send Authorization: Bearer <token>',
  session_invalid: 'The session token is malformed, forged or expired',
  session_revoked: 'The session was signed out or revoked',
  cli_token_invalid: 'The CLI token expired or was revoked: run `app-platform login` again',
  cli_token_scope: 'A CLI token reaches the developer portal and console (/developer/...) only',
  cli_token_not_found: 'No such CLI token of the account',
  role_forbidden: 'The endpoint is for another role',
  user_not_found: 'The account of the session no longer exists',
  email_taken: 'An account with this email already exists',
  business_name_required: 'A merchant account needs a business name',
  password_weak: 'The password is too short, too common or too close to the email or name',
  credentials_invalid: 'Wrong email or password',
  sign_in_throttled: 'Too many failed sign-ins; `Retry-After` says when to try again',
  permission_missing: "The staff account lacks the permission the route needs (orders, products, reviews, pages, settings, apps or billing): the business's owner grants it",
  invitation_invalid: 'The invitation link was used, withdrawn or has expired: ask for a new one',
  invitation_email_mismatch: 'The invitation is for another email address: sign in with the invited one',
  invitation_pending: 'That email already has a pending invitation: withdraw it or send its link again',
  already_member: 'That person already belongs to the business',
  member_not_found: 'No such staff member of the business',
  invitation_not_found: 'No such pending invitation of the business',
  own_permissions: 'A staff member cannot change their own permissions or remove themselves',
  permission_escalation: 'A staff member can grant only permissions they have themselves',
  business_not_found: 'No business of the signed-in user with that id'
})

export const { conflict, fieldError, forbidden, httpError, notFound, tooManyRequests, unauthorized } = errorHelpers(ERROR_CODES)
