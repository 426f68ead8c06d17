import { Type, type Static } from '@sinclair/typebox'
import { MAX_URL_LENGTH, SCOPES, StringEnum, SUBSCRIBABLE_EVENTS, ScopeSchema, ScopeValue, CategorySchema, SignatureSchemeSchema, UrlField } from '../../sdk/src/contract/index.ts'
import { AppSchema, type App } from '../../sdk/src/contract/apps.ts'
import { PricingSchema } from '../../sdk/src/contract/billing.ts'
import { ApiVersionSchema } from '../../sdk/src/contract/api-versions.ts'

export const MAX_SCREENSHOTS = 5
// the contract's lists and enums (sdk/src/contract), re-exported for the capability's modules
export { SUBSCRIBABLE_EVENTS, StringEnum, ScopeSchema, CategorySchema }
// the app as the developer sees it is the contract's (sdk/src/contract/resources.ts; DESIGN §16)
export { AppSchema } from '../../sdk/src/contract/apps.ts'
export { AppVersionSchema as VersionSchema } from '../../sdk/src/contract/resources.ts'
const Url = UrlField({ examples: ['https://app.example.com/oauth/callback'] })
const Scopes = Type.Array(ScopeValue, { minItems: 1, maxItems: SCOPES.length, uniqueItems: true, examples: [['read_products', 'read_orders']] })
const WebhookEvents = Type.Array(StringEnum(SUBSCRIBABLE_EVENTS), { uniqueItems: true, maxItems: SUBSCRIBABLE_EVENTS.length, description: 'Events the webhook created at each install subscribes to' })
/** An image: an http(s) URL or an uploaded /media/ path (checked in code, naming the field; the document shows the rule). */
const ImageUrl = Type.String({
  minLength: 1,
  maxLength: MAX_URL_LENGTH,
  documentedAs: { type: 'string', format: 'uri-reference', pattern: '^(https?://[^/?#\\s]+|/media/)', minLength: 1, maxLength: MAX_URL_LENGTH },
  examples: ['https://app.example.com/icon.png']
})
const Screenshots = Type.Array(ImageUrl, { maxItems: MAX_SCREENSHOTS, description: `Up to ${MAX_SCREENSHOTS} image URLs (http(s), or /media/ paths from the upload endpoint)` })
/** app-platform.json's name for webhookSignatureScheme (DESIGN §22), taken as the same field; a body sends one or the other. */
const { title: _schemeTitle, ...schemeShape } = SignatureSchemeSchema
const SignatureSchemeAlias = Type.Optional({ ...schemeShape, description: 'The same as webhookSignatureScheme (its name in app-platform.json); send one or the other' })
/** Both names at once are refused; the `not` names its two properties (any value) so the document defines what it requires. */
const ONE_SCHEME_NAME = { not: { type: 'object', properties: { webhookSignatureScheme: {}, signatureScheme: {} }, required: ['webhookSignatureScheme', 'signatureScheme'] } }
const AppApiVersion = { ...ApiVersionSchema, description: 'The API version new installations pin to; unset or null: 2026-11, the spec\'s shapes' }
const Version = Type.String({ minLength: 1, maxLength: 32, pattern: '^[0-9A-Za-z][0-9A-Za-z.+-]*$', examples: ['1.2.0'] })
export const SLUG_PATTERN = '^[a-z0-9]+(?:-[a-z0-9]+)*$'

export type AppView = App

export const CreateAppBodySchema = Type.Object({
  name: Type.String({ minLength: 1, maxLength: 100 }),
  slug: Type.String({ minLength: 3, maxLength: 50, pattern: SLUG_PATTERN, description: 'Lowercase, URL-safe, unique; cannot change later' }),
  description: Type.String({ minLength: 1, maxLength: 500 }),
  category: CategorySchema,
  scopes: Scopes,
  pricing: Type.Optional(PricingSchema),
  redirectUrl: Url,
  appUrl: Type.Optional({ ...Url, description: 'Install entry and home: the marketplace’s Install button sends merchants here with businessId and business' }),
  webhookUrl: Type.Optional(Url),
  webhookEvents: Type.Optional(WebhookEvents),
  webhookSignatureScheme: Type.Optional(SignatureSchemeSchema),
  signatureScheme: SignatureSchemeAlias,
  apiVersion: Type.Optional(Type.Union([AppApiVersion, Type.Null()])),
  screenshots: Type.Optional(Screenshots),
  version: Type.Optional(Version)
}, { title: 'CreateAppBody', additionalProperties: false, ...ONE_SCHEME_NAME })
export type CreateApp = Static<typeof CreateAppBodySchema>

export const UpdateAppBodySchema = Type.Object({
  name: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
  // any value reaches the handler, which names the field in its 400; the document says no value is valid
  slug: Type.Optional(Type.Unknown({ description: 'Immutable: sending it is a 400', documentedAs: Type.Not(Type.Unknown()) })),
  description: Type.Optional(Type.String({ minLength: 1, maxLength: 500 })),
  category: Type.Optional(CategorySchema),
  scopes: Type.Optional(Scopes),
  pricing: Type.Optional(PricingSchema),
  redirectUrl: Type.Optional(Url),
  appUrl: Type.Optional(Type.Union([Url, Type.Null()])),
  webhookUrl: Type.Optional(Type.Union([Url, Type.Null()])),
  webhookEvents: Type.Optional(WebhookEvents),
  webhookSignatureScheme: Type.Optional(SignatureSchemeSchema),
  signatureScheme: SignatureSchemeAlias,
  apiVersion: Type.Optional(Type.Union([AppApiVersion, Type.Null()])),
  iconUrl: Type.Optional(Type.Union([ImageUrl, Type.Null()])),
  screenshots: Type.Optional(Screenshots),
  version: Type.Optional(Version)
}, { title: 'UpdateAppBody', additionalProperties: false, minProperties: 1, ...ONE_SCHEME_NAME })
export type UpdateApp = Static<typeof UpdateAppBodySchema>

export const CreatedAppSchema = Type.Object({
  app: AppSchema,
  clientSecret: Type.String({ description: 'Shown only here: store it now', examples: ['fbcs_…'] })
}, { title: 'CreatedApp' })

export const AppIdParams = Type.Object({ appId: Type.String({ minLength: 1, maxLength: 64 }) })

/** The multipart upload, for the document: the handler reads the stream (request.file()), so nothing validates a body. */
export const MediaUploadBodySchema = Type.Unknown({
  documentedAs: Type.Object({
    file: Type.String({ format: 'binary', contentMediaType: 'application/octet-stream', description: 'PNG, JPEG or WebP, at most 1 MB' })
  }, { title: 'MediaUpload' })
})
export const MediaQuery = Type.Object({ kind: Type.Union([Type.Literal('icon'), Type.Literal('screenshot')]) }, { additionalProperties: false })
export const MediaResponseSchema = Type.Object({ url: Type.String(), kind: Type.String(), app: AppSchema })

// a review's record entry is the contract's (sdk/src/contract/resources.ts)
export { ReviewEventSchema, type ReviewEvent } from '../../sdk/src/contract/resources.ts'

export const ReviewReplyBodySchema = Type.Object({
  body: Type.String({ minLength: 1, maxLength: 5000, pattern: '\\S', description: 'The reply, shown to the developer and the reviewers' })
}, { title: 'ReviewReplyBody', additionalProperties: false })

/** What a reviewer approves: the listing fields and the manifest. The diff compares two of these. */
export const SNAPSHOT_FIELDS = [
  'name', 'description', 'category', 'scopes', 'pricing', 'redirectUrl', 'appUrl', 'webhookUrl', 'webhookEvents', 'webhookSignatureScheme',
  'iconUrl', 'screenshots', 'version', 'manifest'
] as const
// Pick would keep the whole app's example, whose id, status and dates a snapshot does not have: its example is the same app's snapshot
export const AppSnapshotSchema = Type.Pick(AppSchema, SNAPSHOT_FIELDS, {
  title: 'AppSnapshot',
  examples: (AppSchema.examples as Array<Record<string, unknown>>).map((app) => Object.fromEntries(SNAPSHOT_FIELDS.map((key) => [key, app[key]])))
})

export const ReviewDiffSchema = Type.Object({
  baseline: Type.Union([Type.Object({
    version: Type.String(),
    approvedAt: Type.String({ format: 'date-time' }),
    snapshot: AppSnapshotSchema
  }), Type.Null()], { description: 'The last approved version, or null when the app was never approved (or only before snapshots were kept)' }),
  current: AppSnapshotSchema
}, { title: 'ReviewDiff' })
