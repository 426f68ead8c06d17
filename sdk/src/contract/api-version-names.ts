import { Type } from '@sinclair/typebox'

/** The dated API versions, oldest first (their registry, with the changes: ./api-versions.ts). */
export const API_VERSIONS = ['2026-11', '2026-12'] as const
export type ApiVersion = typeof API_VERSIONS[number]
/**
 * The version whose shapes the spec describes: what an app that declares none (its `apiVersion`
 * unset) is pinned to, so an app written from the spec alone sees exactly the spec's fields (DESIGN §22).
 */
export const SPEC_API_VERSION: ApiVersion = '2026-11'
/** A version name field, with its own description. */
export const ApiVersionField = (description = 'A dated API version (YYYY-MM)') =>
  Type.Union(API_VERSIONS.map((version) => Type.Literal(version)), { description, examples: ['2026-12'] })
export const ApiVersionSchema = ApiVersionField()
