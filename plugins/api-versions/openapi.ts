import {
  API_VERSION_HEADER, API_VERSIONS, BASE_API_VERSION, VERSION_SCHEMAS, releaseOf, upgrade, type ApiVersion
} from '../../sdk/src/contract/api-versions.ts'

type Json = Record<string, any>

/** The app-facing paths, whose shapes follow the version (the rest of the document is the same in every version). */
const VERSIONED_PATHS = /^\/(app-api|webhooks)(\/|$)/

const plain = (schema: unknown): Json => JSON.parse(JSON.stringify(schema)) as Json

/**
 * The OpenAPI document of one API version, from the routes' document (which speaks the base version,
 * 2026-11): the components whose shape a later version changed are rewritten from the registry's
 * schemas for that version (sdk/src/contract/api-versions.ts), their examples upgraded by the same
 * transforms the answers go through, and every app-facing operation names the App-Api-Version header.
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
  // the merchant's routes share the base components: a version's changed resources are components of their own (Order_2026-12)
  const renamed = new Map<string, string>()
  const schemas = doc.components?.schemas as Json | undefined
  if (schemas !== undefined) {
    for (const [name, schema] of Object.entries(VERSION_SCHEMAS[version])) {
      const baseProperties = (VERSION_SCHEMAS[BASE_API_VERSION] as Json)[name].properties as Json
      const changed = Object.entries((schema as Json).properties as Json)
        .filter(([key, property]) => JSON.stringify(property) !== JSON.stringify(baseProperties[key]))
      if (schemas[name] === undefined || changed.length === 0) continue
      const component = structuredClone(schemas[name]) as Json
      const componentName = `${name}_${version}`
      for (const [key, property] of changed) {
        // an order's items stay a reference, to this version's OrderItem
        component.properties[key] = name === 'Order' && key === 'items' ? { type: 'array', items: { $ref: `#/components/schemas/OrderItem_${version}` } } : plain(property)
      }
      component.title = componentName
      if (Array.isArray(component.examples)) component.examples = component.examples.map((example: unknown) => upgrade(name, example, version, { currency: 'USD' }))
      schemas[componentName] = component
      renamed.set(`#/components/schemas/${name}`, `#/components/schemas/${componentName}`)
    }
  }
  const shapeOf = (schema: Json | undefined): { name: string, list: boolean } | null => {
    const ref = schema?.$ref ?? schema?.properties?.data?.items?.$ref
    if (typeof ref !== 'string' || !renamed.has(ref)) return null
    return { name: ref.slice('#/components/schemas/'.length), list: schema?.$ref === undefined }
  }
  /** The app-facing operations: their examples upgraded, their references to the changed resources renamed. */
  const versionOperation = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(versionOperation)
    if (typeof node !== 'object' || node === null) return node
    const object = node as Json
    if (typeof object.$ref === 'string' && renamed.has(object.$ref)) return { ...object, $ref: renamed.get(object.$ref) }
    const result: Json = {}
    const shape = 'example' in object ? shapeOf(object.schema) : null
    for (const [key, value] of Object.entries(object)) {
      if (key === 'example' && shape !== null) {
        const context = { currency: 'USD' }
        result.example = shape.list
          ? { ...value, data: (value.data ?? []).map((item: unknown) => upgrade(shape.name, item, version, context)) }
          : upgrade(shape.name, value, version, context)
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
