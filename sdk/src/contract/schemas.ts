import { Type, type StringOptions, type TUnsafe } from '@sinclair/typebox'
import { SCOPES } from './scopes.ts'
import { APP_CATEGORIES } from './categories.ts'
import { EVENT_NAMES, SIGNATURE_SCHEMES, SUBSCRIBABLE_EVENTS } from './events.ts'

/** A string enum: `enum` in the JSON Schema (and OpenAPI), the literal union in TypeScript. */
export const StringEnum = <T extends string>(values: readonly T[], options: { description?: string, default?: T, title?: string } = {}): TUnsafe<T> =>
  Type.Unsafe<T>({ type: 'string', enum: [...values], ...options })

/** The longest URL the API accepts in any field (an app's URLs, a webhook target, an extension's renderUrl). */
export const MAX_URL_LENGTH = 2048
/** What the server checks of a URL field (in code, to name the field and the reason), as the document shows it. */
export const HTTP_URL_PATTERN = '^https?://[^/?#\\s]+'
/**
 * A URL field: one length rule everywhere; each use adds its own description and example. The
 * document says http(s) (`documentedAs`: the handler checks it, naming the field).
 */
export const UrlField = (options: StringOptions = {}) => Type.String({
  minLength: 1,
  maxLength: MAX_URL_LENGTH,
  documentedAs: { type: 'string', format: 'uri', pattern: HTTP_URL_PATTERN, minLength: 1, maxLength: MAX_URL_LENGTH, ...options },
  ...options
})

export const ScopeSchema = StringEnum(SCOPES, { title: 'Scope' })
export const CategorySchema = StringEnum(APP_CATEGORIES, { title: 'AppCategory' })
export const EventNameSchema = StringEnum(EVENT_NAMES, { title: 'EventName' })
export const SubscribableEventSchema = StringEnum(SUBSCRIBABLE_EVENTS, { title: 'SubscribableEvent' })
export const SignatureSchemeSchema = StringEnum(SIGNATURE_SCHEMES, {
  title: 'SignatureScheme',
  description: '`spec` (the default): X-Webhook-Timestamp and X-Webhook-Signature (sha256=<hex> of "<timestamp>.<body>"). `standard-webhooks`: webhook-id (the delivery id), webhook-timestamp and webhook-signature (v1,<base64 HMAC-SHA256 of "<id>.<timestamp>.<body>">, keyed with the base64-decoded secret after whsec_); X-Service-Event-Id either way.'
})

/** The same enums typed as plain strings: for records read back from storage, where TypeScript sees text. */
export const ScopeValue = Type.Unsafe<string>({ ...ScopeSchema })
export const EventNameValue = Type.Unsafe<string>({ ...EventNameSchema })
