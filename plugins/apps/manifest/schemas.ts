import { Type, type Static } from '@sinclair/typebox'

import { HOOK_POINTS, HOOK_SCOPES, UrlField, type HookPoint } from '../../../sdk/src/contract/index.ts'

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

export const EmbedSchema = Type.Object({
  embedType: Key,
  name: Name,
  description: Type.Optional(Text),
  kind: Type.String({ description: 'GLOBAL_SCRIPT or FLOATING_WIDGET' }),
  position: Type.String({ description: 'head or body_end (GLOBAL_SCRIPT); bottom_right or bottom_left (FLOATING_WIDGET)' }),
  scriptUrl: Type.Optional(Url),
  renderUrl: Type.Optional(Url),
  settingsSchema: Type.Optional(JsonObject),
  defaultConfig: Type.Optional(JsonObject)
}, { title: 'ManifestEmbed', additionalProperties: false })

export const HookSchema = Type.Object({
  hookPoint: Type.String({ description: `One of ${HOOK_POINTS.join(', ')}` }),
  url: Type.String({ minLength: 1, maxLength: 512, description: "Path appended to the app's webhook URL" }),
  timeout: Type.Optional(Type.Integer({ minimum: 100, maximum: HOOK_DEFAULTS.maxTimeout, description: 'Milliseconds, default 5000' })),
  priority: Type.Optional(Type.Integer({ minimum: 0, maximum: 10_000, description: 'Lower runs first, default 100' })),
  failurePolicy: Type.Optional(Type.Union([Type.Literal('open'), Type.Literal('closed')], { description: 'order.validate only: closed blocks the order when the hook fails' }))
}, { title: 'ManifestHook', additionalProperties: false })

export const AdminPageSchema = Type.Object({
  pageId: Key,
  title: Name,
  iconName: Type.Optional(Type.String({ maxLength: 64 })),
  renderUrl: Url
}, { title: 'ManifestAdminPage', additionalProperties: false })

export const ManifestSchema = Type.Object({
  settingsSchema: Type.Optional(JsonObject),
  blocks: Type.Optional(Type.Array(BlockSchema, { maxItems: MANIFEST_LIMITS.blocks })),
  embeds: Type.Optional(Type.Array(EmbedSchema, { maxItems: MANIFEST_LIMITS.embeds })),
  hooks: Type.Optional(Type.Array(HookSchema, { maxItems: MANIFEST_LIMITS.hooks })),
  adminPages: Type.Optional(Type.Array(AdminPageSchema, { maxItems: MANIFEST_LIMITS.adminPages }))
}, { additionalProperties: false, title: 'Manifest' })
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
