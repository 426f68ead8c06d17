import { Type, type Static } from '@sinclair/typebox'
import { ApiVersionSchema } from '../../sdk/src/contract/api-versions.ts'

/** The API versions' answers (GET /developer/api-versions, the console's per-app table) and the upgrade body. */

const Day = Type.String({ format: 'date', description: 'YYYY-MM-DD (UTC)' })

export const ApiVersionInfoSchema = Type.Object({
  version: ApiVersionSchema,
  releasedOn: Day,
  sunset: Type.Union([Day, Type.Null()], { description: 'The first day the version is refused; null while none is announced' }),
  status: Type.Union([Type.Literal('current'), Type.Literal('supported'), Type.Literal('deprecated'), Type.Literal('sunset')], {
    description: 'current: new installations pin to it; deprecated: a sunset is announced (answers carry Deprecation and Sunset); sunset: refused'
  }),
  changes: Type.Array(Type.Object({ id: Type.String(), title: Type.String(), description: Type.String() }), {
    description: 'What changed from the previous version (written once, with the transforms)'
  })
}, { title: 'ApiVersionInfo' })

export const ApiVersionListSchema = Type.Object({
  current: ApiVersionSchema,
  header: Type.String({ description: 'The request header that names a version', examples: ['App-Api-Version'] }),
  versions: Type.Array(ApiVersionInfoSchema)
}, {
  title: 'ApiVersionList',
  examples: [{
    current: '2026-12',
    header: 'App-Api-Version',
    versions: [{ version: '2026-11', releasedOn: '2026-11-01', sunset: null, status: 'supported', changes: [] }]
  }]
})

const UseKind = Type.Union([Type.Literal('requests'), Type.Literal('webhooks'), Type.Literal('hooks')])

export const AppApiVersionsSchema = Type.Object({
  appId: Type.String(),
  current: ApiVersionSchema,
  days: Type.Integer({ description: 'The usage window, today included' }),
  pinned: Type.Array(Type.Object({
    version: Type.String(), sandbox: Type.Boolean({ description: 'The sandbox (test) installs' }), installs: Type.Integer()
  }), { description: 'The versions the app\'s live installations are pinned to' }),
  usage: Type.Array(Type.Object({
    version: Type.String(),
    kind: UseKind,
    count: Type.Integer({ description: 'Requests, delivery attempts or hook calls in the window' }),
    status: Type.String(),
    sunset: Type.Union([Day, Type.Null()])
  }), { description: 'What the app\'s requests, webhooks and hook calls used in the last `days` days, per version' })
}, { title: 'AppApiVersions' })

export const UpgradeBodySchema = Type.Object({
  version: Type.String({ minLength: 1, maxLength: 20, description: 'A supported version' }),
  target: Type.Union([Type.Literal('sandbox'), Type.Literal('all')], {
    description: 'sandbox: the app\'s test installs first; all: every installation (no merchant consent: versions never change scopes)'
  })
}, { title: 'ApiVersionUpgradeBody', additionalProperties: false })
export type UpgradeBody = Static<typeof UpgradeBodySchema>

export const UpgradeResultSchema = Type.Object({
  version: ApiVersionSchema,
  target: Type.String(),
  moved: Type.Integer({ description: 'Installations now pinned to the version' })
}, { title: 'ApiVersionUpgrade' })
