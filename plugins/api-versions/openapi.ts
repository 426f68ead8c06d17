import {
  API_VERSION_HEADER, API_VERSIONS, DOMAIN_API_VERSION, LATEST_API_VERSION, VERSION_SCHEMAS, downgrade, releaseOf, type ApiVersion
} from '../../sdk/src/contract/api-versions.ts'

type Json = Record<string, any>

/** The app-facing paths, whose shapes follow the version (the rest of the document is the same in every version). */
const VERSIONED_PATHS = /^\/(app-api|webhooks)(\/|$)/

const plain = (schema: unknown): Json => JSON.parse(JSON.stringify(schema)) as Json
const ref = (name: string): string => `#/components/schemas/${name}`

/**
 * The OpenAPI document of one API version, from the routes' document. The App API's routes answer
 * in the newest version's shape, with its own components (`Order_2026-12`, apart from the merchant's
 * unversioned `Order`): the newest version's document is the routes' one with the App-Api-Version
 * header named; an older version's refers its app-facing operations to that version's components
 * instead (the first version's are the merchant's own) and downgrades their examples by the same
 * transforms the answers go through (sdk/src/contract/api-versions.ts).
 */
export function versionedDocument (base: Json, version: ApiVersion): Json {
  const doc = structuredClone(base) as Json
  const release = releaseOf(version)
  doc.info = {
    ...doc.info,
    version,
    title: `${String(doc.info?.title ?? 'API')} (API version ${version})`,
    description: `${String(doc.info?.description ?? '')} This document describes API version ${version}, released ${release.releasedOn}` +
      `${release.sunset === null ? '' : `, sunset on ${release.sunset}`}. An app names the version it speaks with the ${API_VERSION_HEADER} request header ` +
      '(unset: its installation\'s pinned version); every answer says which it used. GET /developer/api-versions lists the versions and their changes.'
  }
  // the newest version's components (Order_2026-12) → this version's (Order: the merchant's, for the first version)
  const renamed = new Map<string, { to: string, shape: string }>()
  const schemas = doc.components?.schemas as Json | undefined
  if (schemas !== undefined && version !== LATEST_API_VERSION) {
    for (const [name, schema] of Object.entries(VERSION_SCHEMAS[version])) {
      const newest = `${name}_${LATEST_API_VERSION}`
      if (schemas[newest] === undefined) continue
      delete schemas[newest]
      const own = schema === (VERSION_SCHEMAS[DOMAIN_API_VERSION] as Json)[name] ? name : `${name}_${version}`
      if (own !== name) schemas[own] = { ...plain(schema), title: own }
      renamed.set(ref(newest), { to: ref(own), shape: name })
    }
  }
  const shapeOf = (schema: Json | undefined): { name: string, list: boolean } | null => {
    const target = schema?.$ref ?? schema?.properties?.data?.items?.$ref
    const found = typeof target === 'string' ? renamed.get(target) : undefined
    return found === undefined ? null : { name: found.shape, list: schema?.$ref === undefined }
  }
  /** The app-facing operations: their references to the newest version's resources renamed, their examples downgraded. */
  const versionOperation = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(versionOperation)
    if (typeof node !== 'object' || node === null) return node
    const object = node as Json
    if (typeof object.$ref === 'string' && renamed.has(object.$ref)) return { ...object, $ref: renamed.get(object.$ref)?.to }
    const result: Json = {}
    const shape = 'example' in object ? shapeOf(object.schema) : null
    for (const [key, value] of Object.entries(object)) {
      if (key === 'example' && shape !== null) {
        result.example = shape.list
          ? { ...value, data: (value.data ?? []).map((item: unknown) => downgrade(shape.name, item, version)) }
          : downgrade(shape.name, value, version)
      } else result[key] = versionOperation(value)
    }
    return result
  }
  const header = {
    name: API_VERSION_HEADER,
    in: 'header',
    required: false,
    description: `The API version to speak (${API_VERSIONS.join(', ')}); unset: the installation's pinned version. An unknown or sunset one is a 400 (api_version_unsupported).`,
    schema: { type: 'string', enum: [...API_VERSIONS] }
  }
  for (const [path, item] of Object.entries(doc.paths as Json)) {
    if (!VERSIONED_PATHS.test(path)) continue
    for (const [method, operation] of Object.entries(item as Json)) {
      if (method === 'servers' || method === 'parameters') continue
      const versioned = versionOperation(operation) as Json
      versioned.parameters = [...(versioned.parameters ?? []), header]
      ;(item as Json)[method] = versioned
    }
  }
  return doc
}
