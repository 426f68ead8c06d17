import { Type } from '@sinclair/typebox'

/** The dated API versions, oldest first (their registry, with the changes: ./api-versions.ts). */
export const API_VERSIONS = ['2026-11', '2026-12'] as const
export type ApiVersion = typeof API_VERSIONS[number]
/** A version name field, with its own description. */
export const ApiVersionField = (description = 'A dated API version (YYYY-MM)') =>
  Type.Union(API_VERSIONS.map((version) => Type.Literal(version)), { description, examples: ['2026-12'] })
export const ApiVersionSchema = ApiVersionField()
