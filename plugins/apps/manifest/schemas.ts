import { Type, type Static, type TSchema } from '@sinclair/typebox'

import { HOOK_POINTS, HOOK_SCOPES, HookPointSchema, StringEnum, UrlField, type HookPoint } from '../../../sdk/src/contract/index.ts'

export { HOOK_POINTS, HOOK_SCOPES, type HookPoint }

export const MANIFEST_LIMITS = { blocks: 25, embeds: 10, hooks: 5, adminPages: 20 } as const
export const HOOK_DEFAULTS = { timeout: 5000, priority: 100, maxTimeout: 10_000 } as const
export const SETTING_FORMATS = ['color', 'date-time', 'uri'] as const

const Key = Type.String({ minLength: 1, maxLength: 64, pattern: '^[a-zA-Z0-9][a-zA-Z0-9_.-]*$' })
const Name = Type.String({ minLength: 1, maxLength: 100 })
const Text = Type.String({ maxLength: 500 })
const Url = UrlField()
const JsonObject = Type.Object({}, { additionalProperties: true })

export const BlockSchema = Type.Object({
  blockType: Key,
  name: Name,
  description: Type.Optional(Text),
  iconName: Type.Optional(Type.String({ maxLength: 64 })),
  category: Type.Optional(Type.String({ maxLength: 64 })),
  renderUrl: Url,
  settingsSchema: Type.Optional(JsonObject),
  defaultConfig: Type.Optional(JsonObject)
}, { title: 'ManifestBlock', additionalProperties: false })

/** Where each kind of embed may go; a GLOBAL_SCRIPT needs a scriptUrl, a FLOATING_WIDGET a renderUrl. */
export const EMBED_POSITIONS = { GLOBAL_SCRIPT: ['head', 'body_end'], FLOATING_WIDGET: ['bottom_right', 'bottom_left'] } as const
type EmbedKind = keyof typeof EMBED_POSITIONS
const EMBED_KINDS = Object.keys(EMBED_POSITIONS) as EmbedKind[]
const EMBED_URL: Record<EmbedKind, 'scriptUrl' | 'renderUrl'> = { GLOBAL_SCRIPT: 'scriptUrl', FLOATING_WIDGET: 'renderUrl' }

/**
 * The manifest's parts in two forms from one list of fields: the published one (enums, and the rules
 * between fields as `if`/`then`, so the document says what the server refuses) and the structural one
 * that validateManifest checks first, with plain strings, so that it words those problems itself.
 */
const embedFields = <K extends TSchema, P extends TSchema>(kind: K, position: P) => ({
  embedType: Key,
  name: Name,
  description: Type.Optional(Text),
  kind,
  position,
  scriptUrl: Type.Optional(Url),
  renderUrl: Type.Optional(Url),
  settingsSchema: Type.Optional(JsonObject),
  defaultConfig: Type.Optional(JsonObject)
})
const hookFields = <H extends TSchema>(hookPoint: H) => ({
  hookPoint,
  url: Type.String({ minLength: 1, maxLength: 512, description: "Path appended to the app's webhook URL" }),
  timeout: Type.Optional(Type.Integer({ minimum: 100, maximum: HOOK_DEFAULTS.maxTimeout, description: 'Milliseconds, default 5000' })),
  priority: Type.Optional(Type.Integer({ minimum: 0, maximum: 10_000, description: 'Lower runs first, default 100' })),
  failurePolicy: Type.Optional(Type.Union([Type.Literal('open'), Type.Literal('closed')], { description: 'order.validate only: closed blocks the order when the hook fails' }))
})

// `type: 'object'` in each branch: ajv's strict mode (the serializer checks `if` with it) wants a type beside `properties`
const kindRules = (kind: EmbedKind) => ({ type: 'object', properties: { position: { enum: [...EMBED_POSITIONS[kind]] }, [EMBED_URL[kind]]: { type: 'string' } }, required: [EMBED_URL[kind]] })

export const EmbedSchema = Type.Object(embedFields(
  StringEnum(EMBED_KINDS),
  // the positions a kind allows are in its `then` below (one enum per kind: serializers cannot merge two)
  Type.String({ description: 'head or body_end (GLOBAL_SCRIPT); bottom_right or bottom_left (FLOATING_WIDGET)' })
), {
  title: 'ManifestEmbed',
  additionalProperties: false,
  // two kinds: one if/then/else (serializers build each branch, where an allOf of two would merge two enums)
  if: { type: 'object', properties: { kind: { const: 'GLOBAL_SCRIPT' } } },
  then: kindRules('GLOBAL_SCRIPT'),
  else: kindRules('FLOATING_WIDGET')
})

export const HookSchema = Type.Object(hookFields(HookPointSchema), {
  title: 'ManifestHook',
  additionalProperties: false,
  // the hook point's scope must be among the app's scopes: a rule across two documents, checked in code
  if: { type: 'object', properties: { hookPoint: { not: { const: 'order.validate' } } }, required: ['hookPoint'] },
  then: { not: { type: 'object', properties: { failurePolicy: { type: 'string' } }, required: ['failurePolicy'] } }
})

export const AdminPageSchema = Type.Object({
  pageId: Key,
  title: Name,
  iconName: Type.Optional(Type.String({ maxLength: 64 })),
  renderUrl: Url
}, { title: 'ManifestAdminPage', additionalProperties: false })

const manifestFields = <E extends TSchema, H extends TSchema>(embed: E, hook: H) => ({
  settingsSchema: Type.Optional(JsonObject),
  blocks: Type.Optional(Type.Array(BlockSchema, { maxItems: MANIFEST_LIMITS.blocks })),
  embeds: Type.Optional(Type.Array(embed, { maxItems: MANIFEST_LIMITS.embeds })),
  hooks: Type.Optional(Type.Array(hook, { maxItems: MANIFEST_LIMITS.hooks })),
  adminPages: Type.Optional(Type.Array(AdminPageSchema, { maxItems: MANIFEST_LIMITS.adminPages }))
})

export const ManifestSchema = Type.Object(manifestFields(EmbedSchema, HookSchema), { additionalProperties: false, title: 'Manifest' })

/** What validateManifest checks first: the manifest's structure, with the enums and rules above left to its own words. */
export const ManifestStructureSchema = Type.Object(manifestFields(
  Type.Object(embedFields(Type.String(), Type.String()), { additionalProperties: false }),
  Type.Object(hookFields(Type.String()), { additionalProperties: false })
), { additionalProperties: false })
export type Manifest = Static<typeof ManifestSchema>

export const ExtensionRefSchema = Type.Object({ kind: Type.String(), key: Type.String() })
export const SyncResultSchema = Type.Object({
  created: Type.Array(ExtensionRefSchema),
  updated: Type.Array(ExtensionRefSchema, { description: 'Changed definitions, including re-activated ones' }),
  deactivated: Type.Array(ExtensionRefSchema),
  reactivated: Type.Array(ExtensionRefSchema, { description: 'Subset of updated: keys that were inactive and came back, with their merchant data' })
}, { title: 'ManifestSyncResult' })
export type SyncResult = Static<typeof SyncResultSchema>

/**
 * The body's manifest is checked by validateManifest (every problem reported at once), not by the
 * route's validator; `documentedAs` shows clients its real shape (server/openapi-shape.ts).
 */
export const PutManifestBodySchema = Type.Object({
  manifest: Type.Unknown({ description: 'The whole manifest', documentedAs: ManifestSchema })
}, { title: 'PutManifestBody', additionalProperties: false })
export const ManifestResponseSchema = Type.Object({ manifest: ManifestSchema, sync: SyncResultSchema, dryRun: Type.Boolean() }, { title: 'ManifestResponse' })
