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

// ---- merchant: the previous setup a reinstall may restore

export const SetupSkipSchema = Type.Object({
  code: Type.Union([
    Type.Literal('extension_gone'), Type.Literal('settings_invalid'), Type.Literal('settings_gone'), Type.Literal('page_gone'), Type.Literal('page_full')
  ], { description: 'Why it cannot be restored: the app no longer has the block or embed, its settings no longer validate, the app has no settings, the page is gone or full' }),
  message: Type.String()
}, { title: 'SetupSkip' })
export type SetupSkip = Static<typeof SetupSkipSchema>

export const SetupItemSchema = Type.Object({
  kind: Type.Union([Type.Literal('settings'), Type.Literal('embed'), Type.Literal('block')]),
  handle: Type.Union([Type.String(), Type.Null()], { description: 'The embedType or blockType; null for the app settings' }),
  name: Type.String({ description: 'The extension’s current name (its handle when the app no longer has it)' }),
  enabled: Type.Union([Type.Boolean(), Type.Null()], { description: 'An embed: whether it was on' }),
  page: Type.Union([Type.Object({ id: Type.String(), slug: Type.String(), title: Type.String() }), Type.Null()], { description: 'A block: the page it stood on' }),
  position: Type.Union([Type.Integer({ minimum: 0 }), Type.Null()], { description: 'A block: its index on the page (0-based)' }),
  skipped: Type.Union([SetupSkipSchema, Type.Null()], { description: 'Null when it is (or was) restored' })
}, { title: 'SetupItem' })
export type SetupItem = Static<typeof SetupItemSchema>

export const PreviousSetupSchema = Type.Object({
  installationId: Type.String(),
  status: Type.Union([Type.Literal('NONE'), Type.Literal('OFFERED'), Type.Literal('RESTORED'), Type.Literal('DISMISSED')], {
    description: 'OFFERED while the merchant may restore it; NONE when the app was not set up here before'
  }),
  previousInstallationId: Type.Union([Type.String(), Type.Null()]),
  uninstalledAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  items: Type.Array(SetupItemSchema, { description: 'While OFFERED: what a restore brings back and what it skips; after a restore: what it did' })
}, { title: 'PreviousSetup' })
export type PreviousSetupView = Static<typeof PreviousSetupSchema>
