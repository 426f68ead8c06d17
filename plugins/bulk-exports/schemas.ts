import { Type } from '@sinclair/typebox'

// the shapes of the App API's side are the contract's (sdk/src/contract/bulk-exports.ts; DESIGN §16)
export { BulkExportCreateBodySchema, BulkExportSchema, type BulkExport, type BulkExportCreateBody } from '../../sdk/src/contract/bulk-exports.ts'

export const BulkExportParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) })

/** The signed link's query: both checked by the route (403 with a code, not a schema's 400), so each stays optional here. */
export const DownloadQuery = Type.Object({
  expires: Type.Optional(Type.String({ maxLength: 20, description: 'Unix seconds: the link\'s expiry' })),
  signature: Type.Optional(Type.String({ maxLength: 128, description: 'Hex HMAC-SHA256 of the export id and expires' }))
}, { additionalProperties: false })
