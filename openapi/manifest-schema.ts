/**
 * The manifest's JSON Schema for the portal's editor, cut from the published OpenAPI document
 * (openapi/openapi.json, components.schemas.Manifest) with the schemas it references: one
 * self-contained draft-07 document, its `#/components/schemas/X` references rewritten to
 * `#/definitions/X`. The admin gets it at build time as `virtual:manifest-schema` (vite.config.ts).
 */
type Json = null | boolean | number | string | Json[] | { [key: string]: Json }
interface OpenApi { components: { schemas: Record<string, Json> } }

const PREFIX = '#/components/schemas/'

export function manifestJsonSchema (openapi: OpenApi): Record<string, Json> {
  const all = openapi.components.schemas
  const definitions: Record<string, Json> = {}
  const rewrite = (node: Json): Json => {
    if (Array.isArray(node)) return node.map(rewrite)
    if (node === null || typeof node !== 'object') return node
    const out: Record<string, Json> = {}
    for (const [key, value] of Object.entries(node)) {
      if (key === '$ref' && typeof value === 'string' && value.startsWith(PREFIX)) {
        const name = value.slice(PREFIX.length)
        if (!(name in all)) throw new Error(`the manifest schema refers to a missing schema: ${name}`)
        if (!(name in definitions)) {
          definitions[name] = true // reserve first: a schema that refers to itself stops here
          definitions[name] = rewrite(all[name])
        }
        out[key] = `#/definitions/${name}`
      } else {
        out[key] = rewrite(value)
      }
    }
    return out
  }
  const manifest = rewrite(all.Manifest) as Record<string, Json>
  return { $schema: 'http://json-schema.org/draft-07/schema#', ...manifest, definitions }
}
