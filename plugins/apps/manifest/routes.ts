import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from '@sinclair/typebox'
import { errorResponses } from '../../../server/schemas.ts'
import { AppIdParams } from '../schemas.ts'
import { ManifestResponseSchema, PutManifestBodySchema } from './schemas.ts'
import type { AppsRouteOptions } from '../service.ts'

const security = [{ developerJwt: [] }]
const tags = ['manifest']

const ExtensionSchema = Type.Object({
  id: Type.String(),
  kind: Type.String(),
  key: Type.String(),
  isActive: Type.Boolean(),
  definition: Type.Record(Type.String(), Type.Unknown()),
  updatedAt: Type.String({ format: 'date-time' })
})

/** PUT /developer/apps/:appId/manifest — validate everything, then sync extensions in the same transaction. */
const manifestRoutes: FastifyPluginAsyncTypebox<AppsRouteOptions> = async (fastify, { apps, guards }) => {
  fastify.addHook('onRequest', guards.requireRole('DEVELOPER'))

  fastify.put('/:appId/manifest', {
    schema: {
      tags, security, operationId: 'putManifest', summary: 'Replace the manifest and sync its extensions',
      description: 'Every problem is reported at once (400, with `errors: [{path, message}]`). New keys are created active, same keys updated in place, missing keys deactivated (kept with merchant data). `?dryRun=true` returns the same diff and writes nothing.',
      params: AppIdParams,
      querystring: Type.Object({ dryRun: Type.Optional(Type.Boolean({ default: false })) }, { additionalProperties: false }),
      body: PutManifestBodySchema,
      response: { 200: ManifestResponseSchema, ...errorResponses(400, 401, 403, 404, 409) }
    }
  }, async (request) => {
    const dryRun = request.query.dryRun === true
    const { appId, manifest, sync } = await apps.saveManifest(request.user.sub, request.params.appId, request.body.manifest, dryRun)
    if (!dryRun) request.log.info({ appId, sync }, 'manifest synced')
    return { manifest, sync, dryRun }
  })

  fastify.get('/:appId/extensions', {
    schema: {
      tags, security, operationId: 'listAppExtensions', summary: 'Synced extensions of the app, active and deactivated',
      params: AppIdParams, response: { 200: Type.Object({ data: Type.Array(ExtensionSchema) }), ...errorResponses(401, 403, 404) }
    }
  }, async (request) => {
    const rows = await apps.extensionsOf(request.user.sub, request.params.appId)
    return {
      data: rows.map((r) => ({
        id: r.id, kind: r.kind, key: r.key, isActive: r.isActive, definition: r.definition,
        updatedAt: r.updatedAt.toISOString()
      }))
    }
  })
}

export default manifestRoutes
