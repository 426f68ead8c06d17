import { Type, type Static, type TSchema } from '@sinclair/typebox'
import { ApiVersionSchema } from './api-version-names.ts'
import { Iso } from './resources.ts'
import { StringEnum } from './schemas.ts'

/**
 * Big merchants (DESIGN §25): incremental sync of the App API's lists (cursor mode) and bulk exports
 * (one request, a signed gzip JSON-lines file, `bulk_export.finished` when it is ready).
 */

/** The lists an app can sync incrementally and export in bulk, and the read scope each needs. */
export const SYNC_RESOURCES = ['products', 'orders', 'reviews'] as const
export type SyncResource = typeof SYNC_RESOURCES[number]
export const SYNC_RESOURCE_SCOPES = { products: 'read_products', orders: 'read_orders', reviews: 'read_reviews' } as const satisfies Record<SyncResource, string>

export const BULK_EXPORT_STATUSES = ['RUNNING', 'COMPLETED', 'FAILED'] as const
export type BulkExportStatus = typeof BULK_EXPORT_STATUSES[number]

/** How long a finished export's file is kept, and how long a download link stays valid. */
export const BULK_EXPORT_RETENTION_DAYS = 7
export const BULK_EXPORT_LINK_SECONDS = 3600

/** The query of a list in cursor mode: given `updatedSince` (a full sync sends 1970-01-01T00:00:00Z) or `cursor`. */
export const SyncQuery = {
  updatedSince: Type.Optional(Type.String({
    maxLength: 40,
    description: 'Cursor mode: records updated at or after this ISO 8601 time (inclusive), ordered by (updatedAt, id) ascending. A full sync sends 1970-01-01T00:00:00Z.',
    examples: ['1970-01-01T00:00:00Z']
  })),
  cursor: Type.Optional(Type.String({
    maxLength: 400,
    description: 'Cursor mode: the previous answer\'s nextCursor (send it with limit only; it keeps the first page\'s filters).'
  }))
}

/** Whether a list's query asks for cursor mode: `updatedSince` or `cursor` given. */
export const inCursorMode = (query: { updatedSince?: string, cursor?: string }): boolean => query.updatedSince !== undefined || query.cursor !== undefined

/** The envelope of a list in cursor mode: no total, no page; nextCursor is null on the last page. */
export function CursorPage<T extends TSchema> (item: T) {
  return Type.Object({
    data: Type.Array(item),
    limit: Type.Integer({ description: 'The page size used' }),
    nextCursor: Type.Union([Type.String(), Type.Null()], { description: 'The next page\'s cursor; null at the end (resume later with updatedSince set to the last record\'s updatedAt)' })
  })
}

export const SyncResourceSchema = StringEnum(SYNC_RESOURCES, { title: 'SyncResource' })
export const BulkExportStatusSchema = StringEnum(BULK_EXPORT_STATUSES, { title: 'BulkExportStatus' })

export const BulkExportCreateBodySchema = Type.Object({
  resource: SyncResourceSchema,
  updatedSince: Type.Optional(Type.String({ maxLength: 40, description: 'Only records updated at or after this ISO 8601 time (inclusive)' }))
}, { additionalProperties: false })
export type BulkExportCreateBody = Static<typeof BulkExportCreateBodySchema>

const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()])

export const BulkExportSchema = Type.Object({
  id: Type.String({ description: 'bex_…' }),
  status: BulkExportStatusSchema,
  resource: SyncResourceSchema,
  updatedSince: Nullable(Type.String({ description: 'As given at creation (ISO 8601)' })),
  apiVersion: ApiVersionSchema,
  createdAt: Iso,
  finishedAt: Nullable(Iso),
  rowCount: Nullable(Type.Integer({ minimum: 0, description: 'Lines in the file' })),
  sizeBytes: Nullable(Type.Integer({ minimum: 0, description: 'Bytes of the gzip file as downloaded' })),
  sha256: Nullable(Type.String({ pattern: '^[0-9a-f]{64}$', description: 'Hex SHA-256 of the gzip file as downloaded' })),
  url: Nullable(Type.String({ description: 'COMPLETED: a signed link to the gzip JSON-lines file, valid until expiresAt, no token needed' })),
  expiresAt: Nullable(Iso),
  error: Nullable(Type.String({ description: 'FAILED: what went wrong' }))
}, { title: 'BulkExport' })
export type BulkExport = Static<typeof BulkExportSchema>
