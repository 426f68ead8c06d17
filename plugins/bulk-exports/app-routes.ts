import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { SYNC_RESOURCE_SCOPES } from '../../sdk/src/contract/bulk-exports.ts'
import { LATEST_API_VERSION } from '../../sdk/src/contract/api-versions.ts'
import { errorResponses } from '../../server/schemas.ts'
import type { AppAuth } from '../installations/service.ts'
import { BulkExportCreateBodySchema, BulkExportParams, BulkExportSchema } from './schemas.ts'
import type { BulkExports } from './service.ts'

const tags = ['bulk-exports']
const security = [{ appToken: [] }]

/**
 * /app-api/bulk-exports (DESIGN §25): an installation's exports. Registered inside the App API's
 * app-token scope (plugins/app-api/index.ts): one token check and one rate-limit budget, so that an
 * export costs one request however many records it holds, and each poll one more.
 */
const bulkExportAppRoutes: FastifyPluginAsyncTypebox<{ bulkExports: BulkExports, appAuth: Pick<AppAuth, 'requireScope'> }> = async (fastify, { bulkExports, appAuth }) => {
  fastify.post('/', {
    // the resource's read scope: the body names the resource
    preHandler: async function (request, reply) {
      await appAuth.requireScope(SYNC_RESOURCE_SCOPES[request.body.resource]).call(this, request, reply)
    },
    schema: {
      tags, security, operationId: 'createBulkExport', summary: 'Export every record of a resource (or those changed since) as a gzip JSON-lines file',
      description: 'The resource\'s read scope (read_products, read_orders, read_reviews). 202 RUNNING; poll GET /app-api/bulk-exports/{id} or wait for `bulk_export.finished` at the app\'s webhook URL. ' +
        'One export runs at a time per installation (409 bulk_export_running). The file has one record per line with exactly the fields of the App API list\'s records, in the request\'s API version, ' +
        'oldest change first; `updatedSince` (ISO 8601, inclusive) narrows it. Kept 7 days. A malformed updatedSince is 400 updated_since_invalid.',
      body: BulkExportCreateBodySchema,
      response: { 202: BulkExportSchema, ...errorResponses(400, 401, 403, 409, 429) }
    }
  }, async (request, reply) => reply.code(202).send(await bulkExports.create(request.installation, request.apiVersion ?? LATEST_API_VERSION, request.body)))

  fastify.get('/:id', {
    schema: {
      tags, security, operationId: 'getBulkExport', summary: 'An export: RUNNING, COMPLETED with its signed download link, or FAILED with its error',
      description: 'Another installation\'s export (on the same business or not) is a 404. COMPLETED: `url` downloads the gzip file with no token until `expiresAt` (an hour; each GET signs a fresh one), ' +
        '`sizeBytes` and `sha256` (hex) describe the file as downloaded, `rowCount` its lines. Each poll costs a request like any call.',
      params: BulkExportParams,
      response: { 200: BulkExportSchema, ...errorResponses(401, 404, 429) }
    }
  }, async (request) => await bulkExports.get(request.installation, request.params.id))
}

export default bulkExportAppRoutes
