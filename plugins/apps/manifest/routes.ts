import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from '@sinclair/typebox'
import { asc, eq } from 'drizzle-orm'
import { apps, appExtensions } from '../../../server/db/schema/index.ts'
import { errorResponses } from '../../../server/schemas.ts'
import { badRequest } from '../../../server/http-errors.ts'
import { AppIdParams } from '../schemas.ts'
import { ManifestResponse, PutManifestBody, type Manifest } from './schemas.ts'
import { validateManifest, describeProblems } from './validate.ts'
import { syncExtensions } from './sync.ts'

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
const manifestRoutes: FastifyPluginAsyncTypebox = async (fastify) => {
  fastify.addHook('onRequest', fastify.requireRole('DEVELOPER'))

  fastify.put('/:appId/manifest', {
    schema: {
      tags, security, summary: 'Replace the manifest and sync its extensions',
      description: 'Every problem is reported at once (400, with `errors: [{path, message}]`). New keys are created active, same keys updated in place, missing keys deactivated (kept with merchant data). `?dryRun=true` returns the same diff and writes nothing.',
      params: AppIdParams,
      querystring: Type.Object({ dryRun: Type.Optional(Type.Boolean({ default: false })) }, { additionalProperties: false }),
      body: PutManifestBody,
      response: { 200: ManifestResponse, ...errorResponses(400, 401, 403, 404, 409) }
    }
  }, async (request) => {
    const dryRun = request.query.dryRun === true
    return await fastify.db.transaction(async (tx) => {
      const app = await fastify.apps.ownedApp(tx, request.user.sub, request.params.appId, true)
      fastify.apps.assertEditable(app)
      const problems = validateManifest(request.body.manifest, { scopes: app.scopes, webhookUrl: app.webhookUrl, production: fastify.config.production })
      if (problems.length > 0) throw badRequest(describeProblems(problems), { errors: problems })
      const manifest = request.body.manifest as Manifest
      const sync = await syncExtensions(tx, app.id, manifest, dryRun)
      if (!dryRun) {
        await tx.update(apps).set({ manifest, updatedAt: new Date() }).where(eq(apps.id, app.id))
        request.log.info({ appId: app.id, sync }, 'manifest synced')
      }
      return { manifest, sync, dryRun }
    })
  })

  fastify.get('/:appId/extensions', {
    schema: {
      tags, security, summary: 'Synced extensions of the app, active and deactivated',
      params: AppIdParams, response: { 200: Type.Object({ data: Type.Array(ExtensionSchema) }), ...errorResponses(401, 403, 404) }
    }
  }, async (request) => {
    const app = await fastify.apps.ownedApp(fastify.db, request.user.sub, request.params.appId)
    const rows = await fastify.db.select().from(appExtensions).where(eq(appExtensions.appId, app.id)).orderBy(asc(appExtensions.kind), asc(appExtensions.key))
    return { data: rows.map((r) => ({ id: r.id, kind: r.kind, key: r.key, isActive: r.isActive, definition: r.definition, updatedAt: r.updatedAt.toISOString() })) }
  })
}

export default manifestRoutes
