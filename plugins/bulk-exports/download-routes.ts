import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from '@sinclair/typebox'
import { errorResponses } from '../../server/schemas.ts'
import { BulkExportParams, DownloadQuery } from './schemas.ts'
import type { BulkExports } from './service.ts'

/**
 * /bulk-exports/:id/download (DESIGN §25): the file behind an export's signed link, with no token, so
 * that an app can hand the link to a worker or a queue. Any web process serves it (the file is in the
 * database), piece by piece.
 */
const downloadRoutes: FastifyPluginAsyncTypebox<{ bulkExports: BulkExports }> = async (fastify, { bulkExports }) => {
  fastify.get('/:id/download', {
    schema: {
      tags: ['bulk-exports'], security: [], operationId: 'downloadBulkExport', summary: 'Download an export\'s gzip JSON-lines file (signed link, no token)',
      description: 'The `url` of a COMPLETED export. A missing or wrong signature is 403 bulk_export_link_invalid, a link past its expiry 403 bulk_export_link_expired, ' +
        'an export gone (pruned after 7 days, or its app uninstalled) 404. The bytes are the gzip file itself (application/gzip, no Content-Encoding): their SHA-256 is the export\'s sha256.',
      params: BulkExportParams,
      querystring: DownloadQuery,
      response: { 200: Type.String({ contentMediaType: 'application/gzip', description: 'gzip of JSON lines' }), ...errorResponses(403, 404) }
    }
  }, async (request, reply) => {
    const { row, body } = await bulkExports.download(request.params.id, request.query.expires, request.query.signature)
    return await reply
      .header('content-type', 'application/gzip')
      .header('content-length', String(row.sizeBytes))
      .header('content-disposition', `attachment; filename="${row.id}-${row.resource}.jsonl.gz"`)
      .header('cache-control', 'private, no-store')
      .send(body as unknown as string)
  })
}

export default downloadRoutes
