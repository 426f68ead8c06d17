import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { errorResponses } from '../../server/schemas.ts'
import { AppIdParams } from '../apps/schemas.ts'
import { Type } from '@sinclair/typebox'
import { API_VERSION_HEADER, isApiVersion } from '../../sdk/src/contract/api-versions.ts'
import { versionedDocument } from './openapi.ts'
import { TREND_DAYS } from '../app-analytics/service.ts'
import { ApiVersionListSchema, AppApiVersionsSchema, UpgradeBodySchema, UpgradeResultSchema } from './schemas.ts'
import { badRequest, notFound } from './errors.ts'
import type { ApiVersions, ApiVersionsNeeds } from './service.ts'

const tags = ['portal']
const security = [{ developerJwt: [] }]

/** The changelog: every version with its status, sunset and changes (the registry's descriptions). */
export const changelogRoutes: FastifyPluginAsyncTypebox<{ apiVersions: ApiVersions }> = async (fastify, { apiVersions }) => {
  fastify.get('/', {
    schema: {
      tags: ['api-versions'], security: [], operationId: 'listApiVersions', summary: 'The API versions and their changes (the changelog)',
      description: 'Public. Each version with its release date, status, announced sunset and the changes from the previous one.',
      response: { 200: ApiVersionListSchema }
    }
  }, async () => ({ current: apiVersions.current, header: API_VERSION_HEADER, versions: apiVersions.list() }))
}

/** Each version's OpenAPI document (GET /openapi/2026-12.json); an unknown version is a 404. */
export const documentRoutes: FastifyPluginAsyncTypebox = async (fastify) => {
  fastify.get('/:document', {
    schema: { hide: true, params: Type.Object({ document: Type.String({ maxLength: 32 }) }) }
  }, async (request) => {
    const version = request.params.document.replace(/\.json$/, '')
    if (!request.params.document.endsWith('.json') || !isApiVersion(version)) throw notFound('api_version_not_found', `API version ${JSON.stringify(version)}`)
    return versionedDocument(fastify.swagger() as Record<string, any>, version)
  })
}

/** The console's per-app versions: what its installs are pinned to and used, and the upgrade. The developer's own app only. */
export const appVersionRoutes: FastifyPluginAsyncTypebox<ApiVersionsNeeds & { apiVersions: ApiVersions }> = async (fastify, options) => {
  const { apiVersions, apps, installations, appAnalytics, guards } = options
  fastify.addHook('onRequest', guards.requireRole('DEVELOPER'))

  fastify.get('/:appId/api-versions', {
    schema: {
      tags, security, operationId: 'getAppApiVersions', summary: 'The API versions my app\'s installs are pinned to and used in the last 30 days',
      description: 'Requests, webhook delivery attempts and hook calls per version (test installs included), with each version\'s status and sunset.',
      params: AppIdParams, response: { 200: AppApiVersionsSchema, ...errorResponses(400, 401, 403, 404) }
    }
  }, async (request) => {
    const app = await apps.ownedApp(request.user.sub, request.params.appId)
    const infos = new Map(apiVersions.list().map((info) => [info.version as string, info]))
    const pinned = await installations.pinnedVersionsOf(app.id)
    const usage = await appAnalytics.versionUses(app.id, TREND_DAYS)
    return {
      appId: app.id,
      current: apiVersions.current,
      days: TREND_DAYS,
      pinned: pinned.map((row) => ({ version: row.apiVersion, sandbox: row.isTestInstall, installs: row.installs })),
      usage: usage.map((row) => ({ ...row, status: infos.get(row.version)?.status ?? 'unknown', sunset: infos.get(row.version)?.sunset ?? null }))
    }
  })

  fastify.post('/:appId/api-versions/upgrade', {
    schema: {
      tags, security, operationId: 'upgradeAppApiVersion', summary: 'Pin my app\'s installs to another API version: the sandbox first, then all',
      description: 'target=sandbox moves the app\'s test installs; target=all every installation. The merchants are not asked: a version changes shapes, never scopes. Webhook registrations without a version of their own follow.',
      params: AppIdParams, body: UpgradeBodySchema, response: { 200: UpgradeResultSchema, ...errorResponses(400, 401, 403, 404) }
    }
  }, async (request) => {
    const app = await apps.ownedApp(request.user.sub, request.params.appId)
    const { version, target } = request.body
    if (!apiVersions.isSupported(version)) {
      throw badRequest('api_version_unsupported', `API version ${JSON.stringify(version)} is not supported`, { supportedVersions: apiVersions.supported() })
    }
    const moved = await installations.pinApiVersion(app.id, version, target)
    return { version, target, moved }
  })
}
