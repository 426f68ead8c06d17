import { Type, type Static } from '@sinclair/typebox'
import { PricingSchema, ScopeValue } from '../../sdk/src/contract/index.ts'

// plain words for the consent screen: the contract's, shared with the admin UI
export { SCOPE_DESCRIPTIONS } from '../../sdk/src/contract/index.ts'

export const AUTHORIZATION_CODE_TTL_MS = 10 * 60 * 1000

// the rules the handlers check (RFC 6749 error codes, not schema messages) and the document shows (documentedAs)
/** The developer CLI is the one public client of the device flow (DESIGN §19). */
export const CLI_CLIENT_ID = 'app-platform-cli'
export const DEVICE_CODE_GRANT = 'urn:ietf:params:oauth:grant-type:device_code'
/** RFC 8628 §6.1: consonants only (no vowels, so no words), upper case, easy to read aloud; 20^8 codes. */
export const USER_CODE_ALPHABET = 'BCDFGHJKLMNPQRSTVWXZ'
export const USER_CODE_LENGTH = 8
/** RFC 7636 §4.1 */
export const PKCE_VERIFIER_PATTERN = '^[A-Za-z0-9._~-]{43,128}$'

const ClientId = Type.String({ minLength: 1, maxLength: 64 })
const RedirectUri = Type.String({ minLength: 1, maxLength: 2048 })
const ScopeParam = Type.String({ maxLength: 1000, description: 'Space-separated scopes; all approved scopes when omitted' })

/**
 * The authorization request's own parameters (RFC 6749 §4.1.1). Loose in validation on purpose: once
 * the client and redirect_uri check out, a wrong value goes back to the client as a redirect
 * (§4.1.2.1), which a schema refusal could not do; the document shows the values accepted.
 */
const RequestParams = {
  state: Type.Optional(Type.String({ maxLength: 1000, description: 'Returned unchanged with the code or the error' })),
  response_type: Type.Optional(Type.String({ maxLength: 100, documentedAs: Type.Literal('code'), description: 'Required: `code`. Missing → 400 whose `redirectTo` carries error=invalid_request; another value → unsupported_response_type' })),
  response_mode: Type.Optional(Type.String({ maxLength: 100, documentedAs: Type.Literal('query'), description: '`query` (the default, the only mode); another value → 400 whose `redirectTo` carries error=invalid_request' })),
  code_challenge: Type.Optional(Type.String({ minLength: 43, maxLength: 128, pattern: '^[A-Za-z0-9_-]+$' })),
  code_challenge_method: Type.Optional(Type.String({ maxLength: 100, documentedAs: Type.Literal('S256'), description: 'S256 only; another value → 400 whose `redirectTo` carries error=invalid_request' }))
}

export const AuthorizeInfoQuery = Type.Object({
  client_id: ClientId,
  redirect_uri: RedirectUri,
  scope: Type.Optional(ScopeParam),
  ...RequestParams
})
export type AuthorizationRequest = Static<typeof AuthorizeInfoQuery>

export const AuthorizeInfoSchema = Type.Object({
  app: Type.Object({
    id: Type.String(), name: Type.String(), slug: Type.String(), description: Type.String(),
    iconUrl: Type.Union([Type.String(), Type.Null()]), developerName: Type.String(), status: Type.String()
  }),
  scopes: Type.Array(Type.Object({ name: ScopeValue, description: Type.String() })),
  // the plans the app may charge this install from (DESIGN §23): the approved ones for a merchant, the edited ones for a test install
  pricing: PricingSchema,
  business: Type.Object({ id: Type.String(), name: Type.String(), isSandbox: Type.Boolean() }),
  isTestInstall: Type.Boolean(),
  alreadyInstalled: Type.Boolean()
}, { title: 'AuthorizationInfo' })

export const AuthorizeBodySchema = Type.Object({
  client_id: ClientId,
  redirect_uri: RedirectUri,
  scope: Type.Optional(ScopeParam),
  ...RequestParams,
  decision: Type.Union([Type.Literal('approve'), Type.Literal('deny')])
}, { title: 'AuthorizeBody', additionalProperties: false })
export type AuthorizeBodyType = Static<typeof AuthorizeBodySchema>

export const RedirectSchema = Type.Object({
  redirectTo: Type.String({ description: 'Send the browser here: the redirect_uri with code and state, or error=access_denied (the consent screen offers that after a Deny, beside Back to the admin)' })
})

const NonEmpty = (maxLength: number, description?: string) => Type.String({ minLength: 1, maxLength, ...(description === undefined ? {} : { description }) })

/** The two grants the token endpoint takes, as the handler checks them: what the document shows. */
const TokenRequestDocument = Type.Unsafe({
  title: 'TokenRequest',
  oneOf: [
    Type.Object({
      grant_type: Type.Literal('authorization_code'),
      code: NonEmpty(200),
      redirect_uri: Type.String({ maxLength: 2048, description: 'Exactly the redirect_uri of the authorization request' }),
      code_verifier: Type.Optional(Type.String({ pattern: PKCE_VERIFIER_PATTERN, description: 'Required when the authorization request carried a code_challenge, refused otherwise' })),
      client_id: Type.Optional(Type.String({ maxLength: 64, description: 'When sent, the HTTP Basic client\'s' })),
      device_code: Type.Optional(Type.String({ maxLength: 200 }))
    }, { description: 'An app exchanging its authorization code (HTTP Basic client authentication)' }),
    Type.Object({
      grant_type: Type.Literal(DEVICE_CODE_GRANT),
      device_code: NonEmpty(200, 'RFC 8628 §3.4'),
      client_id: Type.Literal(CLI_CLIENT_ID),
      code: Type.Optional(Type.String({ maxLength: 200 })),
      redirect_uri: Type.Optional(Type.String({ maxLength: 2048 })),
      code_verifier: Type.Optional(Type.String({ maxLength: 200 }))
    }, { description: 'The developer CLI polling for its token (public client, no secret)' })
  ]
})

/** Loose on purpose: the handler answers problems with RFC 6749 error codes, not schema messages; the document shows its rules. */
export const TokenBodySchema = Type.Object({
  grant_type: Type.Optional(Type.String({ maxLength: 100 })),
  code: Type.Optional(Type.String({ maxLength: 200 })),
  redirect_uri: Type.Optional(Type.String({ maxLength: 2048 })),
  code_verifier: Type.Optional(Type.String({ maxLength: 200 })),
  client_id: Type.Optional(Type.String({ maxLength: 64 })),
  device_code: Type.Optional(Type.String({ maxLength: 200, description: 'With grant_type=urn:ietf:params:oauth:grant-type:device_code (RFC 8628 §3.4)' }))
}, { title: 'TokenRequest', documentedAs: TokenRequestDocument })

export const TokenSchema = Type.Object({
  access_token: Type.String({ examples: ['fbat_…'] }),
  token_type: Type.Literal('bearer'),
  scope: Type.String({ description: 'Granted scopes, space-separated' }),
  installation_id: Type.String(),
  business_id: Type.String(),
  webhook_secret: Type.String({ examples: ['whsec_…'] }),
  admin_return_url: Type.String({
    format: 'uri',
    description: "Where the app may send the merchant's browser when its own install steps are done: the admin's apps screen, naming this installation. Optional to use; never carries a secret.",
    examples: ['https://admin.example.com/admin/apps?installed=inst_7Yq2']
  })
}, { title: 'TokenResponse' })

export const OAuthErrorSchema = Type.Object({
  error: Type.String({ description: 'RFC 6749 error code', examples: ['invalid_grant'] }),
  error_description: Type.String(),
  statusCode: Type.Integer(),
  message: Type.String(),
  code: Type.String({ description: 'The same code as `error` (the stable error code of the platform)', examples: ['invalid_grant'] })
}, { title: 'OAuthError' })

/** RFC 7009 §2.1; loose like TokenBodySchema, so a missing token is an RFC 6749 invalid_request. */
const revokeFields = {
  token: Type.Optional(Type.String({ maxLength: 400, description: 'The access token (fbat_…) to revoke' })),
  token_type_hint: Type.Optional(Type.String({ maxLength: 100, description: 'access_token (the only kind issued); other hints are ignored' }))
}
export const RevokeBodySchema = Type.Object(revokeFields, {
  title: 'RevokeRequest',
  documentedAs: Type.Object({ ...revokeFields, token: NonEmpty(400, 'The access token (fbat_…) to revoke') }, { title: 'RevokeRequest' })
})

export const RevokedSchema = Type.Object({}, { description: 'Empty: the same answer whether or not the token was valid (RFC 7009 §2.2)' })

/** RFC 8414 authorization server metadata. */
export const ServerMetadataSchema = Type.Object({
  issuer: Type.String({ format: 'uri' }),
  authorization_endpoint: Type.String({ format: 'uri', description: 'The consent screen (on ADMIN_URL)' }),
  token_endpoint: Type.String({ format: 'uri' }),
  revocation_endpoint: Type.String({ format: 'uri' }),
  response_types_supported: Type.Array(Type.String()),
  grant_types_supported: Type.Array(Type.String()),
  device_authorization_endpoint: Type.String({ format: 'uri' }),
  code_challenge_methods_supported: Type.Array(Type.String()),
  token_endpoint_auth_methods_supported: Type.Array(Type.String()),
  revocation_endpoint_auth_methods_supported: Type.Array(Type.String()),
  scopes_supported: Type.Array(Type.String()),
  service_documentation: Type.String({ format: 'uri' })
}, { title: 'AuthorizationServerMetadata' })

/** RFC 8628 §3.1; loose like TokenBodySchema, so problems are RFC 6749 error codes. */
const deviceFields = {
  client_id: Type.Optional(Type.String({ maxLength: 64, description: '`app-platform-cli`, the one public client of the device flow' })),
  scope: Type.Optional(Type.String({ maxLength: 1000, description: 'Ignored: a CLI token reaches the developer portal and console' })),
  device_name: Type.Optional(Type.String({ maxLength: 100, description: 'Shown on the approval screen and in the portal\'s list of CLI tokens' }))
}
export const DeviceAuthorizationBodySchema = Type.Object(deviceFields, {
  title: 'DeviceAuthorizationRequest',
  documentedAs: Type.Object({ ...deviceFields, client_id: Type.Literal(CLI_CLIENT_ID, { description: 'The one public client of the device flow' }) }, { title: 'DeviceAuthorizationRequest' })
})

export const DeviceAuthorizationSchema = Type.Object({
  device_code: Type.String(),
  user_code: Type.String({ examples: ['BCDF-GHJK'] }),
  verification_uri: Type.String({ format: 'uri' }),
  verification_uri_complete: Type.String({ format: 'uri' }),
  expires_in: Type.Integer({ description: 'Seconds' }),
  interval: Type.Integer({ description: 'Seconds between polls of the token endpoint' })
}, { title: 'DeviceAuthorization' })

export const DeviceTokenSchema = Type.Object({
  access_token: Type.String({ examples: ['fbcli_…'] }),
  token_type: Type.Literal('bearer'),
  expires_in: Type.Integer({ description: 'Seconds (30 days)' })
}, { title: 'DeviceTokenResponse', description: 'A developer CLI token: /developer routes only' })

/** A user code as the handler reads it: USER_CODE_LENGTH letters of the alphabet, any case, dashes and spaces anywhere. */
const USER_CODE_DOCUMENTED_PATTERN = `^[\\s-]*(?:[${USER_CODE_ALPHABET}${USER_CODE_ALPHABET.toLowerCase()}][\\s-]*){${USER_CODE_LENGTH}}$`
const UserCode = Type.String({
  minLength: 1,
  maxLength: 20,
  description: 'As shown by the CLI; case and dashes do not matter',
  // the handler answers another value with its own code (user_code_invalid); the document says which values are codes
  documentedAs: Type.String({ minLength: 8, maxLength: 20, pattern: USER_CODE_DOCUMENTED_PATTERN, examples: ['BCDF-GHJK'] })
})

export const DeviceInfoQuery = Type.Object({ user_code: UserCode })

export const DeviceInfoSchema = Type.Object({
  clientName: Type.String({ description: 'The name the device chose for itself (device_name): its words, not the platform\'s' }),
  requestedFrom: Type.Union([Type.String(), Type.Null()], { description: 'The client address the device asked from, as the platform saw it (null for a login started before addresses were kept)' }),
  status: Type.String({ description: 'pending, approved, denied or issued' }),
  createdAt: Type.String({ format: 'date-time', description: 'When the device asked' }),
  expiresAt: Type.String({ format: 'date-time' })
}, { title: 'DeviceLogin' })

export const DeviceDecisionBodySchema = Type.Object({
  user_code: UserCode,
  decision: Type.Union([Type.Literal('approve'), Type.Literal('deny')])
}, { title: 'DeviceDecision', additionalProperties: false })
