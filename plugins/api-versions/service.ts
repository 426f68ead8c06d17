import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import type { TSchema } from '@sinclair/typebox'
import {
  API_VERSION_HEADER, API_VERSION_RELEASES, LATEST_API_VERSION, VERSION_SCHEMAS, downgrade, isApiVersion, shapeChanges, shapeOfTitle, upgrade,
  type ApiVersion, type ShapeName, type TransformContext
} from '../../sdk/src/contract/api-versions.ts'
import type { Clock } from '../../server/clock.ts'
import { bindTo } from '../../server/db/bind.ts'
import { badRequest } from './errors.ts'
import type { AppAnalytics } from '../app-analytics/index.ts'
import type { Apps } from '../apps/index.ts'
import type { Guards } from '../auth/guards.ts'
import type { Commerce } from '../commerce/index.ts'
import type { Installations } from '../installations/index.ts'

declare module 'fastify' {
  interface FastifyRequest {
    /** The API version an app-token request speaks (set by registerVersioning); null outside that scope or before the token check. */
    apiVersion: ApiVersion | null
  }
  interface FastifyReply {
    /** The route sent its answer already in the request's version (answerInVersion): the onSend downgrade leaves it. */
    versionShaped: boolean
  }
}

export type VersionStatus = 'current' | 'supported' | 'deprecated' | 'sunset'

export interface VersionInfo {
  version: ApiVersion
  releasedOn: string
  /** YYYY-MM-DD, the first day it is refused; null while none is announced */
  sunset: string | null
  status: VersionStatus
  changes: Array<{ id: string, title: string, description: string }>
}

const utcDay = (at: Date) => at.toISOString().slice(0, 10)

/** What the version functions read: the clock, the current version (API_VERSION_CURRENT), the operator's sunsets (API_VERSION_SUNSETS). */
export interface ApiVersionsContext { clock: Clock, current: ApiVersion, sunsets: Record<string, string> }

/** The sunset the operator announced for the version, else the registry's own; null while none is. */
export function sunsetOf ({ sunsets }: ApiVersionsContext, version: ApiVersion): string | null {
  return sunsets[version] ?? API_VERSION_RELEASES.find((release) => release.version === version)?.sunset ?? null
}

export function list (context: ApiVersionsContext, now = context.clock.now()): VersionInfo[] {
  const today = utcDay(now)
  return API_VERSION_RELEASES.map((release) => {
    const sunset = sunsetOf(context, release.version)
    const status: VersionStatus = sunset !== null && today >= sunset
      ? 'sunset'
      : sunset !== null ? 'deprecated' : release.version === context.current ? 'current' : 'supported'
    return {
      version: release.version,
      releasedOn: release.releasedOn,
      sunset,
      status,
      changes: release.changes.map(({ id, title, description }) => ({ id, title, description }))
    }
  })
}

export function supported (context: ApiVersionsContext, now = context.clock.now()): ApiVersion[] {
  return list(context, now).filter((info) => info.status !== 'sunset').map((info) => info.version)
}

export function isSupported (context: ApiVersionsContext, version: unknown, now = context.clock.now()): version is ApiVersion {
  return isApiVersion(version) && supported(context, now).includes(version)
}

/**
 * The version a call speaks: the one named (refused with 400 when unknown or sunset), else the
 * pinned one; a pinned version past its sunset speaks the oldest one still supported.
 */
export function resolve (context: ApiVersionsContext, named: string | undefined, pinned: ApiVersion, now = context.clock.now()): ApiVersion {
  if (named !== undefined) {
    if (!isSupported(context, named, now)) {
      throw badRequest('api_version_unsupported', `API version ${JSON.stringify(named.slice(0, 20))} is not supported; send one of ${supported(context, now).join(', ')}`,
        { supportedVersions: supported(context, now) })
    }
    return named
  }
  return isSupported(context, pinned, now) ? pinned : supported(context, now)[0] ?? context.current
}

/** RFC 9745 Deprecation (since the successor's release) and RFC 8594 Sunset, once a sunset is announced. */
export function deprecationHeaders (context: ApiVersionsContext, version: ApiVersion): Record<string, string> {
  const sunset = sunsetOf(context, version)
  if (sunset === null) return {}
  const index = API_VERSION_RELEASES.findIndex((release) => release.version === version)
  const successor = API_VERSION_RELEASES[index + 1]
  const deprecatedAt = Date.parse(`${successor?.releasedOn ?? sunset}T00:00:00Z`)
  return {
    deprecation: `@${Math.floor(deprecatedAt / 1000)}`,
    sunset: new Date(Date.parse(`${sunset}T00:00:00Z`)).toUTCString()
  }
}

/**
 * The registry (sdk/src/contract/api-versions.ts) as it stands today: the sunsets the operator
 * announced (API_VERSION_SUNSETS) over the registry's own, the current version (API_VERSION_CURRENT).
 * The functions above, bound to the configuration; they hold no state.
 */
export function createApiVersions (context: ApiVersionsContext) {
  return {
    ...bindTo(context, { list, supported, resolve, deprecationHeaders, sunsetOf }),
    // bound by hand: a type predicate does not survive bindTo
    isSupported: (version: unknown, now?: Date): version is ApiVersion => isSupported(context, version, now),
    current: context.current
  }
}

export type ApiVersionsService = ReturnType<typeof createApiVersions>

/**
 * The resource a schema describes: its title, or the title of a list envelope's items (`Order_2026-12`
 * is an `Order`); for a list's envelopes in either mode (page or cursor, an anyOf), their common items'.
 */
function shapeOfSchema (schema: unknown): { shape: ShapeName, list: boolean } | null {
  const object = schema as (TSchema & { properties?: Record<string, TSchema & { items?: TSchema }>, anyOf?: TSchema[] }) | undefined
  if (object === undefined || object === null) return null
  if (typeof object.title === 'string') return { shape: shapeOfTitle(object.title), list: false }
  if (Array.isArray(object.anyOf)) {
    const branches = object.anyOf.map(shapeOfSchema)
    const first = branches[0]
    const same = first !== null && first !== undefined && first.list && branches.every((branch) => branch?.list === true && branch.shape === first.shape)
    return same ? first : null
  }
  const items = object.properties?.data?.items
  if (items !== undefined && typeof items.title === 'string') return { shape: shapeOfTitle(items.title), list: true }
  return null
}

const HEADER = API_VERSION_HEADER.toLowerCase()

/**
 * Versions every call of the app-token scope (App API and /webhooks): after the token check, the
 * version is the header's or the installation's pinned one (400 when the header names an unknown or
 * sunset one), said in the answer's App-Api-Version header with Deprecation and Sunset once its sunset
 * is announced, and counted for the console. The handlers speak the newest version (LATEST_API_VERSION):
 * a request body of an older version is upgraded before validation, an answer downgraded as it is sent:
 * an answer object before serialization, then serialized with the version's own schema; text (a route
 * that serialized itself) from its text. The newest version's answers leave untouched, and the catalogue
 * cache keeps each version's bytes (answerInVersion, reply.versionShaped).
 */
export function registerVersioning (scope: FastifyInstance, { apiVersions, appAnalytics, commerce }: VersioningDeps): void {
  scope.decorateRequest('apiVersion', null)
  scope.decorateReply('versionShaped', false)
  scope.addHook('preValidation', async (request, reply) => {
    const installation = request.installation
    if (installation === null || installation === undefined) return
    const named = request.headers[HEADER]
    const version = apiVersions.resolve(Array.isArray(named) ? named[0] : named, installation.apiVersion)
    request.apiVersion = version
    reply.header(API_VERSION_HEADER, version)
    for (const [name, value] of Object.entries(apiVersions.deprecationHeaders(version))) reply.header(name, value)
    appAnalytics.recordVersionUse(installation.appId, installation.id, 'requests', version)
    // a body that names a version for later (a webhook registration's apiVersion) must name one still supported: a sunset one is refused
    const asked = typeof request.body === 'object' && request.body !== null ? (request.body as { apiVersion?: unknown }).apiVersion : undefined
    if (typeof asked === 'string' && isApiVersion(asked) && !apiVersions.isSupported(asked)) {
      const supported = apiVersions.supported()
      throw badRequest('api_version_unsupported', `API version ${asked} is past its sunset; name one of ${supported.join(', ')}`, { supportedVersions: supported })
    }
    const body = shapeOfSchema(request.routeOptions.schema?.body)
    if (version !== LATEST_API_VERSION && body !== null && request.body !== undefined && shapeChanges(body.shape, version)) {
      request.body = upgrade(body.shape, request.body, version, await contextOf(commerce, request))
    }
  })
  // an answer object (what handlers return) is downgraded before it is serialized, and serialized with
  // the version's own schema: no text to parse and write again
  scope.addHook('preSerialization', async (request, reply, payload: unknown) => {
    if (reply.versionShaped || reply.statusCode >= 300 || typeof payload !== 'object' || payload === null) return payload
    const changed = changedAnswer(request, reply.statusCode)
    if (changed === null) return payload
    const own = responseSchemaIn(changed.schema, changed.resource, changed.version)
    if (own === null) return payload
    reply.serializer(reply.compileSerializationSchema(own as Record<string, unknown>))
    reply.versionShaped = true
    return downgradeValue(payload as Record<string, unknown>, changed.resource, changed.version)
  })
  // an answer sent as text (a route that serialized it itself) is downgraded from its text
  scope.addHook('onSend', async (request, reply, payload) => {
    if (reply.versionShaped || reply.statusCode >= 300 || typeof payload !== 'string') return payload
    return answerInVersion(request, payload, reply.statusCode)
  })
}

/** `value`, a newest-shape answer (a resource, or a list envelope of them), as `version` shows it. */
function downgradeValue (value: Record<string, unknown>, resource: { shape: ShapeName, list: boolean }, version: ApiVersion): unknown {
  if (!resource.list) return downgrade(resource.shape, value, version)
  const data = Array.isArray(value.data) ? value.data : []
  return { ...value, data: data.map((item) => downgrade(resource.shape, item, version)) }
}

/**
 * A route's response schema as `version` shows it: the version's own schema of the resource in place
 * of the newest one's (a list envelope's items), or null when the registry has none for it. One object
 * per (schema, version), so that fastify compiles each serializer once.
 */
const versionedSchemas = new WeakMap<TSchema, Map<ApiVersion, TSchema | null>>()
function responseSchemaIn (schema: TSchema, resource: { shape: ShapeName, list: boolean }, version: ApiVersion): TSchema | null {
  let byVersion = versionedSchemas.get(schema)
  if (byVersion === undefined) versionedSchemas.set(schema, byVersion = new Map())
  if (!byVersion.has(version)) {
    const own = (VERSION_SCHEMAS[version] as Record<string, TSchema | undefined>)[resource.shape]
    const withItems = (envelope: TSchema & { properties: Record<string, TSchema> }) =>
      ({ ...envelope, properties: { ...envelope.properties, data: { ...envelope.properties.data, items: own } } })
    const envelopes = schema as TSchema & { properties: Record<string, TSchema>, anyOf?: Array<TSchema & { properties: Record<string, TSchema> }> }
    byVersion.set(version, own === undefined
      ? null
      : !resource.list ? own : envelopes.anyOf !== undefined ? { ...envelopes, anyOf: envelopes.anyOf.map(withItems) } : withItems(envelopes))
  }
  return byVersion.get(version) ?? null
}

/**
 * A route's answer `payload` (JSON text in the newest version's shape, as the handlers speak) in the
 * request's version: downgraded where the route's response schema for `status` names a shape that
 * changed since, else as it is. For routes that keep their answers' bytes per version (the catalogue
 * cache), which then set `reply.versionShaped` so that onSend does not downgrade them again.
 */
export function answerInVersion (request: FastifyRequest, payload: string, status = 200): string {
  const changed = changedAnswer(request, status)
  if (changed === null) return payload
  return JSON.stringify(downgradeValue(JSON.parse(payload) as Record<string, unknown>, changed.resource, changed.version))
}

/**
 * The route's answer for `status` when the request's version shows it otherwise than the newest: the
 * version, the response schema and the resource it describes; null when the answer goes as it is.
 */
function changedAnswer (request: FastifyRequest, status: number) {
  const version = request.apiVersion
  if (version === null || version === LATEST_API_VERSION) return null
  const schema = (request.routeOptions.schema?.response as Record<string, TSchema> | undefined)?.[String(status)]
  const resource = shapeOfSchema(schema)
  if (schema === undefined || resource === null || !shapeChanges(resource.shape, version)) return null
  return { version, schema, resource }
}

/** What an upgrade may need: the business's currency. */
async function contextOf (commerce: VersioningDeps['commerce'], request: FastifyRequest): Promise<TransformContext> {
  const business = await commerce.getBusinessProfile(request.installation.businessId)
  return { currency: business.currency }
}

/** A reply's version headers, for routes that answer themselves. */
export function versionHeaders (reply: FastifyReply, version: ApiVersion, service: ApiVersionsService): void {
  reply.header(API_VERSION_HEADER, version)
  for (const [name, value] of Object.entries(service.deprecationHeaders(version))) reply.header(name, value)
}

/** What the versioning of the app-token scope asks of the others: the counters, a business's currency (upgrades). */
export interface VersioningDeps {
  apiVersions: ApiVersionsService
  appAnalytics: Pick<AppAnalytics, 'recordVersionUse'>
  commerce: Pick<Commerce, 'getBusinessProfile'>
}

/** API versions' port (server/capability.ts): the registry as it stands, and the versioning the App API puts on its scope. */
export interface ApiVersions extends ApiVersionsService {
  registerVersioning: (scope: FastifyInstance) => void
}

/** What API versions needs of the others. */
export interface ApiVersionsNeeds extends Omit<VersioningDeps, 'apiVersions'> {
  appAnalytics: VersioningDeps['appAnalytics'] & Pick<AppAnalytics, 'versionUses'>
  apps: Pick<Apps, 'ownedApp'>
  installations: Pick<Installations, 'pinnedVersionsOf' | 'pinApiVersion'>
  guards: Pick<Guards, 'requireRole'>
}

export function startApiVersions (fastify: FastifyInstance, { appAnalytics, commerce }: ApiVersionsNeeds): ApiVersions {
  const apiVersions = createApiVersions({ clock: fastify.clock, current: fastify.config.apiVersionCurrent, sunsets: fastify.config.apiVersionSunsets })
  return { ...apiVersions, registerVersioning: (scope) => registerVersioning(scope, { apiVersions, appAnalytics, commerce }) }
}
