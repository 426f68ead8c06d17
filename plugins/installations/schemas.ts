import { Type, type Static } from '@sinclair/typebox'

const SettingsSchema = Type.Record(Type.String(), Type.Unknown(), { description: 'Values for the extension’s settingsSchema' })

// the page editor's body (PUT /merchant/pages/:slug/blocks) is commerce's; installations checks its blocks
export { MAX_PAGE_BLOCKS, PageBlocksBodySchema, type PageBlocksBody } from '../commerce/schemas.ts'

// ---- merchant: installation embeds

export const EmbedStateSchema = Type.Object({
  embedType: Type.String(),
  name: Type.String(),
  description: Type.String(),
  kind: Type.Union([Type.Literal('GLOBAL_SCRIPT'), Type.Literal('FLOATING_WIDGET')]),
  position: Type.Union([Type.Literal('head'), Type.Literal('body_end'), Type.Literal('bottom_right'), Type.Literal('bottom_left')]),
  enabled: Type.Boolean({ description: 'False until the merchant enables it' }),
  settings: SettingsSchema,
  settingsSchema: Type.Union([SettingsSchema, Type.Null()]),
  defaultConfig: SettingsSchema
}, { title: 'EmbedState' })

export const EmbedsResponseSchema = Type.Object({
  installationId: Type.String(),
  embeds: Type.Array(EmbedStateSchema, { description: 'The app’s active embeds with this installation’s configuration' })
})

export const EmbedsBodySchema = Type.Object({
  embeds: Type.Record(Type.String({ minLength: 1, maxLength: 64 }), Type.Object({
    enabled: Type.Boolean(),
    settings: Type.Optional({ ...SettingsSchema, description: 'Validated against the embed’s settingsSchema; the current settings when omitted' })
  }, { additionalProperties: false }), { description: 'Keyed by embedType; embeds not named keep their configuration', maxProperties: 20 })
}, { title: 'EmbedsBody', additionalProperties: false })
export type EmbedsBody = Static<typeof EmbedsBodySchema>

// ---- merchant: the block picker

export const AvailableBlockSchema = Type.Object({
  installationId: Type.String(),
  app: Type.Object({ id: Type.String(), name: Type.String(), iconUrl: Type.Union([Type.String(), Type.Null()]) }),
  blockType: Type.String(),
  name: Type.String(),
  description: Type.String(),
  iconName: Type.Union([Type.String(), Type.Null()]),
  category: Type.String({ description: 'The block’s category, else its app’s' }),
  settingsSchema: Type.Union([SettingsSchema, Type.Null()]),
  defaultConfig: SettingsSchema
}, { title: 'AvailableBlock' })

export const AvailableBlocksSchema = Type.Object({ data: Type.Array(AvailableBlockSchema) }, { title: 'AvailableBlocks' })
