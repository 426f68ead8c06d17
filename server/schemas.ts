import { Type, type Static } from '@sinclair/typebox'

export const ErrorSchema = Type.Object({
  statusCode: Type.Integer({ examples: [404] }),
  error: Type.String({ description: 'HTTP reason phrase', examples: ['Not Found'] }),
  message: Type.String({ examples: ['Product not found'] })
}, { $id: 'ErrorBody', additionalProperties: true, description: 'Every error has this shape.' })

const ErrorRef = Type.Ref(ErrorSchema)

/** Response schemas for the given error statuses, all in the spec's error format. */
export function errorResponses (...codes: number[]): Record<number, typeof ErrorRef> {
  return Object.fromEntries(codes.map((code) => [code, ErrorRef]))
}

export interface PageLimits { defaultLimit: number, maxLimit: number }
export const DEFAULT_PAGE_LIMITS: PageLimits = { defaultLimit: 20, maxLimit: 100 }

/** `?page&limit`: both positive integers; a limit above the maximum is clamped, not refused (DESIGN §5). */
export function PaginationQuery (limits: PageLimits = DEFAULT_PAGE_LIMITS) {
  return Type.Object({
    page: Type.Optional(Type.Integer({ minimum: 1, maximum: 1_000_000, default: 1, description: 'Page number, from 1' })),
    // clampedMaximum: `maximum` in the OpenAPI document (server/openapi-shape.ts); the validator clamps instead of refusing
    limit: Type.Optional(Type.Integer({ minimum: 1, clampedMaximum: limits.maxLimit, default: limits.defaultLimit, description: `Items per page (default ${limits.defaultLimit}, at most ${limits.maxLimit}; larger values are clamped)` }))
  })
}

/** The list envelope of every paginated endpoint: the contract's (sdk/src/contract/resources.ts). */
export { Paginated } from '../sdk/src/contract/resources.ts'

export function pageWindow (query: { page?: number, limit?: number }, limits: PageLimits = DEFAULT_PAGE_LIMITS) {
  const page = query.page ?? 1
  const limit = Math.min(query.limit ?? limits.defaultLimit, limits.maxLimit)
  return { page, limit, offset: (page - 1) * limit }
}

export const IdParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) })
export type IdParamsType = Static<typeof IdParams>

export const Timestamp = Type.String({ format: 'date-time' })
