import { Type, type Static } from '@sinclair/typebox'
import { ERROR_CODE_LIST, type ErrorCode } from '../sdk/src/contract/error-codes.ts'

/** A stable error code: one enum for the whole API (docs/decisions.md), generated from every capability's errors.ts. */
export const ErrorCodeSchema = Type.Unsafe<ErrorCode>({
  type: 'string',
  enum: ERROR_CODE_LIST,
  description: 'Stable, machine-readable code (DESIGN §21): decide by it, never by `message`. sdk/src/contract/error-codes.ts says when each is sent.'
})

/** One problem of a 400 that lists several (schema validation, manifests, page blocks, settings). */
export const ErrorItemSchema = Type.Object({
  in: Type.Optional(Type.Union([Type.Literal('body'), Type.Literal('querystring'), Type.Literal('params'), Type.Literal('headers')], { description: 'The part of the request (body when absent)' })),
  path: Type.String({ description: 'JSON Pointer to the field inside that part, e.g. /webhookEvents or /blocks/0/settings/maxReviews', examples: ['/webhookEvents'] }),
  message: Type.String({ description: 'What is wrong, as a sentence about the field', examples: ['must be <= 5'] }),
  code: ErrorCodeSchema
}, { $id: 'ErrorItem', additionalProperties: false })

export const ErrorSchema = Type.Object({
  statusCode: Type.Integer({ examples: [404] }),
  error: Type.String({ description: 'HTTP reason phrase', examples: ['Not Found'] }),
  message: Type.String({ examples: ['Product not found'] }),
  code: ErrorCodeSchema,
  errors: Type.Optional(Type.Array(Type.Ref(ErrorItemSchema), { description: 'Every problem, each with the path of its field (validation_failed, manifest_invalid)' }))
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
